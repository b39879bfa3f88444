package migrations

import (
	"context"
	"testing"
)

// Migration 00028 gives checkpoints, run events and assistant versions
// their owner: rows written before it get it from their parents, and so do
// rows that the previous release, which does not know the column, inserts
// after it.
func TestOwnerKeys(t *testing.T) {
	ctx := context.Background()
	p, conn := migratedTo(t, "migrowner", 25)
	const owner = "00000000-0000-4000-8000-000000000001"
	// What the previous release writes: no owner on the child rows.
	oldInserts := func(n string) {
		t.Helper()
		_, err := conn.Exec(ctx, `
			INSERT INTO checkpoints (thread_id, id, base_id, step, source, state, created_at) VALUES
				('00000000-0000-4000-8000-0000000000a1', '01900000-0000-7000-8000-00000000000`+n+`',
				 '01900000-0000-7000-8000-00000000000`+n+`', 0, 'input', '{}', now());
			INSERT INTO run_events (run_id, event, data) VALUES ('00000000-0000-4000-8000-0000000000b1', 'values', '{}');
			INSERT INTO assistant_versions (assistant_id, version, graph_id, name, config, context, metadata) VALUES
				('00000000-0000-4000-8000-0000000000c1', `+n+`, 'trip', 'a', '{}', '{}', '{}');`)
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err := conn.Exec(ctx, `
		INSERT INTO users (id, name) VALUES ('`+owner+`', 'old');
		INSERT INTO threads (id, owner_id) VALUES ('00000000-0000-4000-8000-0000000000a1', '`+owner+`');
		INSERT INTO runs (id, thread_id, owner_id, status) VALUES
			('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a1', '`+owner+`', 'running');
		INSERT INTO assistants (id, owner_id, graph_id, name) VALUES ('00000000-0000-4000-8000-0000000000c1', '`+owner+`', 'trip', 'a');`)
	if err != nil {
		t.Fatal(err)
	}
	oldInserts("1")
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	oldInserts("2")
	for _, table := range []string{"checkpoints", "run_events", "assistant_versions"} {
		var rows, owned int
		err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE owner_id = $1) FROM `+table, owner).Scan(&rows, &owned)
		if err != nil {
			t.Fatal(err)
		}
		if rows != 2 || owned != 2 {
			t.Errorf("%s: %d of %d rows name their owner, want 2 of 2", table, owned, rows)
		}
	}
}
