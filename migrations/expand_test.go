package migrations

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// previousRelease is the newest migration of the release before this one:
// the migrations after it are this release's expand migrations, which
// that release must keep working on.
const previousRelease = 22

// The previous release inserts runs without an owner and store items
// without their bytes. After this release's migrations those inserts keep
// working: the owner comes from the thread and the bytes from the value,
// rows written before are backfilled, what this release writes is kept as
// it is, and the index the previous release claims runs on is still there.
func TestPreviousReleaseWritesAfterExpand(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	p, conn := migratedTo(t, "migrexpand", previousRelease)
	const (
		owner  = "00000000-0000-4000-8000-000000000001"
		other  = "00000000-0000-4000-8000-000000000002"
		thread = "00000000-0000-4000-8000-0000000000a1"
	)
	exec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// Written by the previous release before the upgrade.
	exec(`INSERT INTO users (id, name) VALUES ('` + owner + `', 'old'), ('` + other + `', 'other');
		INSERT INTO threads (id, owner_id) VALUES ('` + thread + `', '` + owner + `');
		INSERT INTO runs (id, thread_id, status) VALUES ('00000000-0000-4000-8000-0000000000b1', '` + thread + `', 'success');
		INSERT INTO store_items (user_id, namespace, key, value) VALUES ('` + owner + `', '{a}', 'before', '{"x":1}')`)
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	// Written by the previous release during the upgrade, and by this one.
	exec(`INSERT INTO runs (id, thread_id, status) VALUES ('00000000-0000-4000-8000-0000000000b2', '` + thread + `', 'pending');
		INSERT INTO store_items (user_id, namespace, key, value) VALUES ('` + owner + `', '{a}', 'during', '{"x":1,"y":[1,2]}');
		INSERT INTO runs (id, thread_id, owner_id, status) VALUES ('00000000-0000-4000-8000-0000000000b3', '` + thread + `', '` + other + `', 'success');
		INSERT INTO store_items (user_id, namespace, key, value, bytes) VALUES ('` + owner + `', '{a}', 'now', '{"x":1}', 7)`)

	rows, err := conn.Query(ctx, `SELECT ARRAY[id::text, owner_id::text] FROM runs ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	owners, err := pgx.CollectRows(rows, pgx.RowTo[[2]string])
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"00000000-0000-4000-8000-0000000000b1", owner}, {"00000000-0000-4000-8000-0000000000b2", owner},
		{"00000000-0000-4000-8000-0000000000b3", other}}
	if len(owners) != len(want) {
		t.Fatalf("runs and owners %v, want %v", owners, want)
	}
	for i := range want {
		if owners[i] != want[i] {
			t.Errorf("run %s has owner %s, want %s", want[i][0], owners[i][1], want[i][1])
		}
	}

	rows, err = conn.Query(ctx, `SELECT key, bytes FROM store_items ORDER BY key`)
	if err != nil {
		t.Fatal(err)
	}
	type sized struct {
		Key   string
		Bytes int
	}
	items, err := pgx.CollectRows(rows, pgx.RowToStructByPos[sized])
	if err != nil {
		t.Fatal(err)
	}
	// jsonb's text of {"x":1,"y":[1,2]} is {"x": 1, "y": [1, 2]}: 21
	// bytes; with the key and the label, 28.
	wantItems := []sized{{"before", 8 + 6 + 1}, {"during", 21 + 6 + 1}, {"now", 7}}
	if len(items) != len(wantItems) {
		t.Fatalf("items %v, want %v", items, wantItems)
	}
	for i := range wantItems {
		if items[i] != wantItems[i] {
			t.Errorf("item %s counts %d bytes, want %d", wantItems[i].Key, items[i].Bytes, wantItems[i].Bytes)
		}
	}

	for index, use := range map[string]string{"runs_pending_idx": "claims runs", "photos_search_trgm": "searches photos"} {
		var kept bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = $1)`, index).Scan(&kept); err != nil {
			t.Fatal(err)
		}
		if !kept {
			t.Errorf("%s, on which the previous release %s, was dropped by an expand migration", index, use)
		}
	}
}
