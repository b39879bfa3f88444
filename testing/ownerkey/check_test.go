package ownerkey

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		sql  string
		want string // a part of the reason, "" when the statement keeps the rule
	}{
		{`SELECT id FROM threads WHERE id = $1 AND owner_id::text = $2 FOR NO KEY UPDATE`, ""},
		{`SELECT FROM threads WHERE id = $1 FOR NO KEY UPDATE`, ""},
		{`SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`, ""},
		{`UPDATE runs SET updated_at = now() WHERE id = $1`, "runs"},
		{`UPDATE runs SET updated_at = now() WHERE id = $1 AND thread_id = $2`, ""},
		{`SELECT r.id FROM runs r JOIN threads t ON t.id = r.thread_id WHERE r.id = $1`, "runs, threads"},
		{`SELECT r.id FROM runs r JOIN threads t ON t.id = r.thread_id WHERE r.id = $1 AND t.owner_id = $2`, ""},
		{`SELECT r.id FROM runs r WHERE $2 = r.owner_id`, ""},
		{`SELECT 1 FROM runs r WHERE r.owner_id = r.thread_id`, "runs"},
		{`DELETE FROM threads t USING runs r WHERE r.id = $1 AND t.id = r.thread_id`, "threads, runs"},
		{`INSERT INTO threads AS th (id, owner_id) VALUES ($1, $2)`, ""},
		{`INSERT INTO run_events (run_id, event) SELECT $1, $2`, "run_events"},
		{`INSERT INTO users (name) VALUES ($1)`, "users"},
		{`SELECT * FROM store_items WHERE user_id = ANY($1)`, ""},
		{`SELECT * FROM crons WHERE user_id IN ($1, $2)`, ""},
		{`SELECT count(*) FROM accommodations WHERE city_id = $1`, ""},
		{`SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)`, ""},
		{`SELECT id FROM runs /* any owner: claim */ WHERE status = 'pending'`, ""},
		{`SELECT id FROM runs /* any owner: because */ WHERE status = 'pending'`, "not listed"},
		{`SELECT id FROM runs WHERE status = 'owner_id = $1' -- thread_id = $2`, "runs"},
	} {
		got := check(tt.sql)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s\n got %q, want %q", tt.sql, got, tt.want)
		}
	}
}
