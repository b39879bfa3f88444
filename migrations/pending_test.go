package migrations

import (
	"context"
	"database/sql"
	"testing"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

func TestPending(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	db, err := sql.Open("pgx", testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	steps := []struct {
		name  string
		apply func(context.Context, string) error
		want  bool
	}{
		{"up", Up, false},
		{"down one", Down, true},
		{"up again", Up, false},
	}
	for _, step := range steps {
		if err := step.apply(ctx, testURL); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got, err := Pending(ctx, db)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got != step.want {
			t.Errorf("after %s: Pending = %v, want %v", step.name, got, step.want)
		}
	}
}
