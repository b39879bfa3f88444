package migrations

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// Migration 00004 sets the head of every existing thread to its newest
// checkpoint, so that writers that pass that head keep working; a thread
// without checkpoints gets none.
func TestThreadHeadBackfill(t *testing.T) {
	ctx := context.Background()
	p, conn := migratedTo(t, "migrhead", 3)
	newest := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	_, err := conn.Exec(ctx, `
		INSERT INTO users (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'old');
		INSERT INTO threads (id, owner_id) VALUES
			('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001'),
			('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-000000000001'),
			('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-000000000001');
		INSERT INTO checkpoints (thread_id, id, base_id, step, source, state, created_at) VALUES
			('00000000-0000-4000-8000-0000000000a1', '01900000-0000-7000-8000-000000000001', '01900000-0000-7000-8000-000000000001', 0, 'input', '{}', '2026-05-01 11:00:00Z'),
			('00000000-0000-4000-8000-0000000000a1', '01900000-0000-7000-8000-000000000003', '01900000-0000-7000-8000-000000000003', 2, 'loop', '{}', '2026-05-01 12:00:00Z'),
			('00000000-0000-4000-8000-0000000000a1', '01900000-0000-7000-8000-000000000002', '01900000-0000-7000-8000-000000000002', 1, 'loop', '{}', '2026-05-01 11:30:00Z'),
			('00000000-0000-4000-8000-0000000000a2', '01900000-0000-7000-8000-000000000009', '01900000-0000-7000-8000-000000000009', 0, 'input', '{}', '2026-04-01 00:00:00Z');`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		thread string
		head   *string
		at     *time.Time
	}{
		{"00000000-0000-4000-8000-0000000000a1", ptr("01900000-0000-7000-8000-000000000003"), &newest},
		{"00000000-0000-4000-8000-0000000000a2", ptr("01900000-0000-7000-8000-000000000009"), ptr(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC))},
		{"00000000-0000-4000-8000-0000000000a3", nil, nil},
	}
	for _, tt := range tests {
		var head *string
		var at *time.Time
		if err := conn.QueryRow(ctx, `SELECT head::text, head_at FROM threads WHERE id = $1`, tt.thread).Scan(&head, &at); err != nil {
			t.Fatal(err)
		}
		if (head == nil) != (tt.head == nil) || (head != nil && *head != *tt.head) || (at == nil) != (tt.at == nil) || (at != nil && !at.Equal(*tt.at)) {
			t.Errorf("thread %s: head %v at %v, want %v at %v", tt.thread, deref(head), deref(at), deref(tt.head), deref(tt.at))
		}
	}
}

func ptr[T any](v T) *T { return &v }

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// migratedTo makes a fresh database whose name starts with prefix,
// migrated up to version, and returns its migrations and a connection to
// it; both, and the database, go when the test ends.
func migratedTo(t *testing.T, prefix string, version int64) (*goose.Provider, *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	url := pgtest.Database(t, prefix)
	p, db, err := provider(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return p, conn
}
