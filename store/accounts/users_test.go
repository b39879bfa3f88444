package accounts_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/accounts/accountstest"
	"github.com/tripgraph/tripgraph/testing/ownerkey"
)

// The PostgreSQL accounts pass the accounts' suite, each test on emptied
// tables, and every statement they send names its owner or is a listed
// exception (see testing/ownerkey).
func TestSuite(t *testing.T) {
	admin := openTestStore(t)
	cfg, err := pgxpool.ParseConfig(testURL)
	if err != nil {
		t.Fatal(err)
	}
	seen := &ownerkey.Recorder{}
	cfg.ConnConfig.Tracer = seen
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := accounts.New(pool)
	accountstest.Run(t, func(t *testing.T) accountstest.Accounts {
		if _, err := admin.Pool.Exec(t.Context(), `TRUNCATE users CASCADE`); err != nil {
			t.Fatal(err)
		}
		return s
	})
	if t.Failed() {
		return
	}
	for _, p := range ownerkey.Check(seen.Statements()) {
		t.Errorf("a statement of the accounts %s", p)
	}
}

// Only the key's hash is stored.
func TestKeyStoredAsHash(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	ana, err := s.EnsureUser(ctx, "hashed")
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := s.CreateAPIKey(ctx, accounts.NewKey{UserID: ana.ID, Label: "cli"})
	if err != nil {
		t.Fatal(err)
	}
	var stored int
	s.Pool.QueryRow(ctx, `SELECT count(*) FROM api_keys WHERE position($1::bytea in key_hash) > 0`, []byte(key)).Scan(&stored)
	if stored != 0 {
		t.Fatal("the plaintext key is stored")
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
	key, _, err := s.CreateAPIKey(ctx, accounts.NewKey{UserID: u.ID, Label: "test"})
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
			if _, _, err := s.UserByAPIKey(ctx, key); err != nil {
				t.Fatal(err)
			}
			after, xmax := lastUsed()
			if wrote := xmax != xmin; wrote != tc.wantWrite || after == nil || (wrote && before != nil && !after.After(*before)) {
				t.Fatalf("last_used_at %v → %v, row written %v; want written %v", before, after, wrote, tc.wantWrite)
			}
		})
	}
}
