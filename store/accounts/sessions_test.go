package accounts_test

import (
	"context"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// TestSessions checks that a session is found by its token from another
// connection pool (as another process would), not by its hash, until it
// is deleted or expires; and that expired ones are swept when a new one
// is opened.
func TestSessions(t *testing.T) {
	ctx := context.Background()
	s, other := openTestStore(t), openTestStore(t)
	u, err := s.EnsureUser(ctx, "session-user")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.CreateSession(ctx, u.ID, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if sess.Token == "" || sess.CSRFToken == "" || sess.Token == sess.CSRFToken || time.Until(sess.ExpiresAt) > time.Hour {
		t.Fatalf("session %+v", sess)
	}
	got, err := other.SessionByToken(ctx, sess.Token)
	if err != nil || got.UserID != u.ID || got.CSRFToken != sess.CSRFToken {
		t.Fatalf("SessionByToken = %+v, %v", got, err)
	}
	var stored []byte
	if err := s.Pool.QueryRow(ctx, `SELECT token_hash FROM web_sessions WHERE user_id = $1`, u.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if string(stored) == sess.Token {
		t.Error("the token is stored as it is")
	}
	if _, err := s.SessionByToken(ctx, string(stored)); errcode.Of(err) != errcode.Unauthenticated {
		t.Errorf("the stored hash opens a session: %v", err)
	}

	if err := other.DeleteSession(ctx, sess.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionByToken(ctx, sess.Token); errcode.Of(err) != errcode.Unauthenticated {
		t.Errorf("a deleted session: %v", err)
	}

	old, err := s.CreateSession(ctx, u.ID, "", time.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE web_sessions SET expires_at = now() - interval '1 minute' WHERE token_hash = $1`, accounts.Hash(old.Token)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionByToken(ctx, old.Token); errcode.Of(err) != errcode.Unauthenticated {
		t.Errorf("an expired session: %v", err)
	}
	if _, err := s.CreateSession(ctx, u.ID, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM web_sessions WHERE token_hash = $1`, accounts.Hash(old.Token)).Scan(&n); err != nil || n != 0 {
		t.Errorf("the expired session was kept (%d, %v)", n, err)
	}
}

func TestLoginLinks(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	u, err := s.EnsureUser(ctx, "link-user")
	if err != nil {
		t.Fatal(err)
	}
	token, err := s.CreateLoginLink(ctx, u.ID, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.UseLoginLink(ctx, token); err != nil || got != u.ID {
		t.Fatalf("UseLoginLink = %q, %v", got, err)
	}
	if _, err := s.UseLoginLink(ctx, token); errcode.Of(err) != errcode.Unauthenticated {
		t.Errorf("a used link: %v", err)
	}
	expired, err := s.CreateLoginLink(ctx, u.ID, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE login_links SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, accounts.Hash(expired)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UseLoginLink(ctx, expired); errcode.Of(err) != errcode.Unauthenticated {
		t.Errorf("an expired link: %v", err)
	}
}
