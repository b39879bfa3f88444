package accounts

import (
	"context"
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
)

func TestUsersAndAPIKeys(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	ana, err := s.EnsureUser(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.EnsureUser(ctx, "ana")
	if err != nil || again.ID != ana.ID {
		t.Fatalf("EnsureUser twice: got %v, %v; want the same user %s", again, err, ana.ID)
	}
	if _, err := s.UserByName(ctx, "nobody"); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("UserByName(nobody) = %v, want NOT_FOUND", err)
	}
	if _, err := s.EnsureUser(ctx, "Bad Name!"); err == nil {
		t.Fatal("a user name with spaces and capitals was accepted")
	}

	for _, tc := range []struct {
		name string
		want errcode.Code
	}{
		{"carla", ""},
		{"carla", errcode.Conflict},
		{"ana", errcode.Conflict},
		{"Bad Name!", errcode.BadRequest},
		{"", errcode.BadRequest},
	} {
		u, err := s.CreateUser(ctx, tc.name)
		if tc.want == "" {
			if err != nil || u.Name != tc.name || u.ID == "" {
				t.Fatalf("CreateUser(%q) = %v, %v", tc.name, u, err)
			}
			continue
		}
		if errcode.Of(err) != tc.want {
			t.Errorf("CreateUser(%q) = %v, want %s", tc.name, err, tc.want)
		}
	}

	key, err := s.CreateAPIKey(ctx, ana.ID, "cli")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(key, APIKeyPrefix) {
		t.Fatalf("key %q lacks the %q prefix", key, APIKeyPrefix)
	}
	var stored int
	s.Pool.QueryRow(ctx, `SELECT count(*) FROM api_keys WHERE position($1::bytea in key_hash) > 0`, []byte(key)).Scan(&stored)
	if stored != 0 {
		t.Fatal("the plaintext key is stored")
	}
	got, err := s.UserByAPIKey(ctx, key)
	if err != nil || got.ID != ana.ID {
		t.Fatalf("UserByAPIKey = %v, %v; want %s", got, err, ana.ID)
	}
	for _, bad := range []string{"", "tg_wrong", key + "x"} {
		if _, err := s.UserByAPIKey(ctx, bad); errcode.Of(err) != errcode.Forbidden {
			t.Errorf("UserByAPIKey(%q) = %v, want FORBIDDEN", bad, err)
		}
	}
	if err := s.RevokeAPIKey(ctx, ana.ID, key); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserByAPIKey(ctx, key); errcode.Of(err) != errcode.Forbidden {
		t.Fatalf("a revoked key still works: %v", err)
	}
}

// A key is marked used on its first use, and again only once the mark is
// lastUsedStep old: checking a key does not write its row every time.
func TestAPIKeyLastUsed(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	u, err := s.EnsureUser(ctx, "last-used")
	if err != nil {
		t.Fatal(err)
	}
	key, err := s.CreateAPIKey(ctx, u.ID, "test")
	if err != nil {
		t.Fatal(err)
	}
	lastUsed := func() (ts *time.Time, xmin uint32) {
		t.Helper()
		hash := sha256.Sum256([]byte(key))
		if err := s.Pool.QueryRow(ctx, `SELECT last_used_at, xmin::text::bigint FROM api_keys WHERE key_hash = $1`, hash[:]).Scan(&ts, &xmin); err != nil {
			t.Fatal(err)
		}
		return ts, xmin
	}
	for _, tc := range []struct {
		name      string
		age       string // how old the mark is made before the use; "" leaves it
		wantWrite bool
	}{
		{"the first use", "", true},
		{"a use right after", "", false},
		{"a use once the mark is older than the step", "2 minutes", true},
		{"a use with a recent mark", "30 seconds", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.age != "" {
				if _, err := s.Pool.Exec(ctx, `UPDATE api_keys SET last_used_at = now() - $2::interval WHERE user_id = $1`, u.ID, tc.age); err != nil {
					t.Fatal(err)
				}
			}
			before, xmin := lastUsed()
			if _, err := s.UserByAPIKey(ctx, key); err != nil {
				t.Fatal(err)
			}
			after, xmax := lastUsed()
			if wrote := xmax != xmin; wrote != tc.wantWrite || after == nil || (wrote && before != nil && !after.After(*before)) {
				t.Fatalf("last_used_at %v → %v, row written %v; want written %v", before, after, wrote, tc.wantWrite)
			}
		})
	}
}
