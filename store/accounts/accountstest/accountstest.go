// Package accountstest is the behaviour suite of the accounts: users,
// API keys and their roles, revocation and rotation, end users known by
// an identity, browser sessions and login links. The PostgreSQL accounts
// (store/accounts) and the in-memory twin (store/memstore) both run it.
package accountstest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// Accounts is what the suite drives.
type Accounts interface {
	CreateUser(ctx context.Context, name string) (accounts.User, error)
	EnsureUser(ctx context.Context, name string) (accounts.User, error)
	UserByName(ctx context.Context, name string) (accounts.User, error)
	UserByID(ctx context.Context, id string) (accounts.User, error)

	CreateAPIKey(ctx context.Context, n accounts.NewKey) (string, accounts.Key, error)
	UserByAPIKey(ctx context.Context, secret string) (accounts.User, accounts.Key, error)
	ListAPIKeys(ctx context.Context, userID string) ([]accounts.Key, error)
	RevokeAPIKey(ctx context.Context, userID, keyID string) (accounts.Key, error)
	RotateAPIKey(ctx context.Context, userID, keyID string) (string, accounts.Key, error)

	UserByIdentity(ctx context.Context, id accounts.Identity) (accounts.User, error)

	CreateSession(ctx context.Context, userID, keyID string, ttl time.Duration) (accounts.Session, error)
	SessionByToken(ctx context.Context, token string) (accounts.Session, error)
	DeleteSession(ctx context.Context, token string) error
	CreateLoginLink(ctx context.Context, userID string, ttl time.Duration) (string, error)
	UseLoginLink(ctx context.Context, token string) (string, error)
}

// Run runs the suite on accounts that new makes empty for each test.
func Run(t *testing.T, newAccounts func(t *testing.T) Accounts) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, Accounts)
	}{
		{"users", users},
		{"keys", keys},
		{"roles", roles},
		{"revoke", revoke},
		{"rotate", rotate},
		{"identities", identities},
		{"identities raced", identitiesRaced},
		{"sessions", sessions},
		{"login links", loginLinks},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, newAccounts(t)) })
	}
}

// result is what a call returned, for must.
type result[T any] struct {
	v   T
	err error
}

func call[T any](v T, err error) result[T] { return result[T]{v, err} }

// must is the call's value; its error fails the test.
func (r result[T]) must(t *testing.T) T {
	t.Helper()
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.v
}

// code fails the test unless err has the code want.
func code(t *testing.T, what string, err error, want errcode.Code) {
	t.Helper()
	if errcode.Of(err) != want {
		t.Errorf("%s: %v, want %s", what, err, want)
	}
}

func users(t *testing.T, a Accounts) {
	ctx := t.Context()
	ana := call(a.EnsureUser(ctx, "ana")).must(t)
	if again := call(a.EnsureUser(ctx, "ana")).must(t); again.ID != ana.ID {
		t.Fatalf("EnsureUser twice gave %s and %s", ana.ID, again.ID)
	}
	if got := call(a.UserByName(ctx, "ana")).must(t); got.ID != ana.ID {
		t.Errorf("UserByName = %+v", got)
	}
	if got := call(a.UserByID(ctx, ana.ID)).must(t); got.Name != "ana" {
		t.Errorf("UserByID = %+v", got)
	}
	_, err := a.UserByName(ctx, "nobody")
	code(t, "UserByName(nobody)", err, errcode.NotFound)
	for _, tc := range []struct {
		name string
		want errcode.Code
	}{{"carla", ""}, {"carla", errcode.Conflict}, {"ana", errcode.Conflict}, {"Bad Name!", errcode.BadRequest}, {"", errcode.BadRequest}} {
		u, err := a.CreateUser(ctx, tc.name)
		if tc.want == "" && (err != nil || u.Name != tc.name || u.ID == "") {
			t.Errorf("CreateUser(%q) = %+v, %v", tc.name, u, err)
		}
		if tc.want != "" {
			code(t, "CreateUser("+tc.name+")", err, tc.want)
		}
	}
}

func keys(t *testing.T, a Accounts) {
	ctx := t.Context()
	ana := call(a.EnsureUser(ctx, "ana")).must(t)
	secret, k, err := a.CreateAPIKey(ctx, accounts.NewKey{UserID: ana.ID, Label: "cli"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, accounts.APIKeyPrefix) || k.ID == "" || k.UserID != ana.ID || k.Label != "cli" || k.Role != accounts.RoleUser || k.Revoked() {
		t.Fatalf("new key %q: %+v", secret, k)
	}
	u, used, err := a.UserByAPIKey(ctx, secret)
	if err != nil || u.ID != ana.ID || used.ID != k.ID || used.Role != accounts.RoleUser {
		t.Fatalf("UserByAPIKey = %+v, %+v, %v", u, used, err)
	}
	for _, bad := range []string{"", "tg_wrong", secret + "x"} {
		_, _, err := a.UserByAPIKey(ctx, bad)
		code(t, "UserByAPIKey("+bad+")", err, errcode.Forbidden)
	}
	second, k2, err := a.CreateAPIKey(ctx, accounts.NewKey{UserID: ana.ID, Label: "app", Role: accounts.RoleBackend})
	if err != nil || second == secret || k2.Role != accounts.RoleBackend {
		t.Fatalf("second key: %+v, %v", k2, err)
	}
	list := call(a.ListAPIKeys(ctx, ana.ID)).must(t)
	if len(list) != 2 || list[0].ID != k2.ID || list[1].ID != k.ID {
		t.Fatalf("ListAPIKeys = %+v, want the newest first", list)
	}
	bob := call(a.EnsureUser(ctx, "bob")).must(t)
	if list := call(a.ListAPIKeys(ctx, bob.ID)).must(t); len(list) != 0 {
		t.Errorf("bob lists ana's keys: %+v", list)
	}
	_, _, err = a.CreateAPIKey(ctx, accounts.NewKey{UserID: ana.ID, Role: "root"})
	code(t, "a key of an unknown role", err, errcode.BadRequest)
	_, _, err = a.CreateAPIKey(ctx, accounts.NewKey{UserID: ana.ID, Label: strings.Repeat("x", accounts.MaxLabelLength+1)})
	code(t, "a key with a long label", err, errcode.BadRequest)
}

// Every role is kept and read back with the key.
func roles(t *testing.T, a Accounts) {
	ctx := t.Context()
	u := call(a.EnsureUser(ctx, "ops")).must(t)
	for _, role := range accounts.Roles {
		secret, _, err := a.CreateAPIKey(ctx, accounts.NewKey{UserID: u.ID, Role: role})
		if err != nil {
			t.Fatal(err)
		}
		if _, k, err := a.UserByAPIKey(ctx, secret); err != nil || k.Role != role {
			t.Errorf("a %s key reads back as %q (%v)", role, k.Role, err)
		}
	}
}

// Revoking a key refuses it from then on and ends the sessions opened
// with it, but no other session; only its user revokes it, once.
func revoke(t *testing.T, a Accounts) {
	ctx := t.Context()
	ana := call(a.EnsureUser(ctx, "ana")).must(t)
	bob := call(a.EnsureUser(ctx, "bob")).must(t)
	secret, k := keyOf(t, a, ana.ID)
	other, _ := keyOf(t, a, ana.ID)
	withKey := call(a.CreateSession(ctx, ana.ID, k.ID, time.Hour)).must(t)
	if got := call(a.SessionByToken(ctx, withKey.Token)).must(t); got.KeyID != k.ID {
		t.Fatalf("the session's key is %q, want %s", got.KeyID, k.ID)
	}
	byLink := call(a.CreateSession(ctx, ana.ID, "", time.Hour)).must(t)

	_, err := a.RevokeAPIKey(ctx, bob.ID, k.ID)
	code(t, "bob revoking ana's key", err, errcode.NotFound)
	_, err = a.RevokeAPIKey(ctx, ana.ID, "not-a-uuid")
	code(t, "revoking a malformed id", err, errcode.BadRequest)
	revoked, err := a.RevokeAPIKey(ctx, ana.ID, k.ID)
	if err != nil || !revoked.Revoked() || revoked.ID != k.ID {
		t.Fatalf("RevokeAPIKey = %+v, %v", revoked, err)
	}
	_, _, err = a.UserByAPIKey(ctx, secret)
	code(t, "a revoked key", err, errcode.Forbidden)
	_, err = a.SessionByToken(ctx, withKey.Token)
	code(t, "a session of a revoked key", err, errcode.Unauthenticated)
	if _, err := a.SessionByToken(ctx, byLink.Token); err != nil {
		t.Errorf("a session opened by a login link ended with the key: %v", err)
	}
	if _, _, err := a.UserByAPIKey(ctx, other); err != nil {
		t.Errorf("another key of the user stopped working: %v", err)
	}
	_, err = a.RevokeAPIKey(ctx, ana.ID, k.ID)
	code(t, "revoking twice", err, errcode.NotFound)
	list := call(a.ListAPIKeys(ctx, ana.ID)).must(t)
	if len(list) != 2 || list[1].ID != k.ID || !list[1].Revoked() || list[0].Revoked() {
		t.Errorf("after the revocation the keys are %+v", list)
	}
}

// Rotating a key gives a new one of the same label and role and revokes
// the old one with its sessions.
func rotate(t *testing.T, a Accounts) {
	ctx := t.Context()
	ana := call(a.EnsureUser(ctx, "ana")).must(t)
	old, k, err := a.CreateAPIKey(ctx, accounts.NewKey{UserID: ana.ID, Label: "app", Role: accounts.RoleBackend})
	if err != nil {
		t.Fatal(err)
	}
	sess := call(a.CreateSession(ctx, ana.ID, k.ID, time.Hour)).must(t)
	secret, next, err := a.RotateAPIKey(ctx, ana.ID, k.ID)
	if err != nil || secret == old || next.ID == k.ID || next.Label != "app" || next.Role != accounts.RoleBackend {
		t.Fatalf("RotateAPIKey = %+v, %v", next, err)
	}
	_, _, err = a.UserByAPIKey(ctx, old)
	code(t, "the rotated key", err, errcode.Forbidden)
	_, err = a.SessionByToken(ctx, sess.Token)
	code(t, "a session of the rotated key", err, errcode.Unauthenticated)
	if u, _, err := a.UserByAPIKey(ctx, secret); err != nil || u.ID != ana.ID {
		t.Errorf("the new key: %+v, %v", u, err)
	}
	_, _, err = a.RotateAPIKey(ctx, ana.ID, k.ID)
	code(t, "rotating a revoked key", err, errcode.NotFound)
	bob := call(a.EnsureUser(ctx, "bob")).must(t)
	_, _, err = a.RotateAPIKey(ctx, bob.ID, next.ID)
	code(t, "bob rotating ana's key", err, errcode.NotFound)
}

func keyOf(t *testing.T, a Accounts, userID string) (string, accounts.Key) {
	t.Helper()
	secret, k, err := a.CreateAPIKey(t.Context(), accounts.NewKey{UserID: userID, Label: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return secret, k
}

// An identity is one user, made on first sight; the same subject of
// another issuer is another user; what cannot be stored is refused.
func identities(t *testing.T, a Accounts) {
	ctx := t.Context()
	vivi := accounts.Identity{Issuer: "https://id.example/", Subject: "vivi"}
	first := call(a.UserByIdentity(ctx, vivi)).must(t)
	if again := call(a.UserByIdentity(ctx, vivi)).must(t); again.ID != first.ID {
		t.Fatalf("the same identity made two users: %s and %s", first.ID, again.ID)
	}
	if err := accounts.CheckName(first.Name); err != nil || strings.Contains(first.Name, "vivi") {
		t.Errorf("an end user is named %q (%v): a valid name that owes nothing to the subject", first.Name, err)
	}
	elsewhere := call(a.UserByIdentity(ctx, accounts.Identity{Issuer: "https://other.example/", Subject: "vivi"})).must(t)
	backend := call(a.UserByIdentity(ctx, accounts.Identity{Issuer: accounts.BackendIssuer(first.ID), Subject: "vivi"})).must(t)
	if elsewhere.ID == first.ID || backend.ID == first.ID || backend.ID == elsewhere.ID {
		t.Errorf("one subject of three issuers is users %s, %s, %s", first.ID, elsewhere.ID, backend.ID)
	}
	for _, bad := range []accounts.Identity{
		{Issuer: "", Subject: "x"}, {Issuer: "i", Subject: ""}, {Issuer: "i", Subject: "a\x00b"},
		{Issuer: "i", Subject: strings.Repeat("s", accounts.MaxIdentityLength+1)}, {Issuer: "i", Subject: "\xff"},
	} {
		_, err := a.UserByIdentity(ctx, bad)
		code(t, "identity "+strings.ToValidUTF8(bad.Subject, "?"), err, errcode.BadRequest)
	}
}

// Requests racing on an identity's first sight all get one user.
func identitiesRaced(t *testing.T, a Accounts) {
	ctx := t.Context()
	id := accounts.Identity{Issuer: "https://id.example/", Subject: "raced"}
	const n = 8
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			u, err := a.UserByIdentity(ctx, id)
			if err != nil {
				t.Error(err)
			}
			ids[i] = u.ID
		})
	}
	wg.Wait()
	for _, got := range ids {
		if got != ids[0] {
			t.Fatalf("racing first sights made several users: %v", ids)
		}
	}
}

func sessions(t *testing.T, a Accounts) {
	ctx := t.Context()
	u := call(a.EnsureUser(ctx, "ana")).must(t)
	sess := call(a.CreateSession(ctx, u.ID, "", time.Hour)).must(t)
	if sess.Token == "" || sess.CSRFToken == "" || sess.Token == sess.CSRFToken || time.Until(sess.ExpiresAt) > time.Hour || sess.KeyID != "" {
		t.Fatalf("session %+v", sess)
	}
	got, err := a.SessionByToken(ctx, sess.Token)
	if err != nil || got.UserID != u.ID || got.CSRFToken != sess.CSRFToken {
		t.Fatalf("SessionByToken = %+v, %v", got, err)
	}
	_, err = a.SessionByToken(ctx, string(accounts.Hash(sess.Token)))
	code(t, "the token's hash", err, errcode.Unauthenticated)
	if err := a.DeleteSession(ctx, sess.Token); err != nil {
		t.Fatal(err)
	}
	_, err = a.SessionByToken(ctx, sess.Token)
	code(t, "a deleted session", err, errcode.Unauthenticated)
	if err := a.DeleteSession(ctx, sess.Token); err != nil {
		t.Errorf("deleting a session twice: %v", err)
	}
}

func loginLinks(t *testing.T, a Accounts) {
	ctx := t.Context()
	u := call(a.EnsureUser(ctx, "ana")).must(t)
	token := call(a.CreateLoginLink(ctx, u.ID, time.Minute)).must(t)
	if got, err := a.UseLoginLink(ctx, token); err != nil || got != u.ID {
		t.Fatalf("UseLoginLink = %q, %v", got, err)
	}
	_, err := a.UseLoginLink(ctx, token)
	code(t, "a used link", err, errcode.Unauthenticated)
}
