package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// tripgraph user create makes a user, and tripgraph apikey mints keys only
// for users that exist.
func TestUserAndAPIKey(t *testing.T) {
	pgtest.Skip(t)
	t.Setenv("DATABASE_URL", testURL)
	ctx := context.Background()
	cfg := envConfig(t)
	steps := []struct {
		name    string
		run     func(context.Context, config.Config, []string, *bytes.Buffer) error
		args    []string
		wantOut string // a prefix of the output
		wantErr string // part of the error; empty for none
	}{
		{"a key for a user that does not exist", apikey, []string{"--user", "nobody"}, "", `there is no user "nobody": create it first with tripgraph user create nobody`},
		{"create the user", user, []string{"create", "nobody"}, "created user nobody (id ", ""},
		{"create it again", user, []string{"create", "nobody"}, "", `user "nobody" exists already`},
		{"a bad name", user, []string{"create", "No Body"}, "", "must be 1 to 63 lower-case letters"},
		{"no name", user, []string{"create"}, "", "usage: tripgraph user create NAME"},
		{"a key for the user", apikey, []string{"--user", "nobody"}, "tg_", ""},
	}
	for _, s := range steps {
		var out bytes.Buffer
		err := s.run(ctx, cfg, s.args, &out)
		switch {
		case s.wantErr == "" && err != nil:
			t.Fatalf("%s: %v", s.name, err)
		case s.wantErr != "" && (err == nil || !strings.Contains(err.Error(), s.wantErr)):
			t.Fatalf("%s: error %v, want one saying %q", s.name, err, s.wantErr)
		case !strings.HasPrefix(out.String(), s.wantOut):
			t.Fatalf("%s: output %q, want it to start with %q", s.name, out.String(), s.wantOut)
		}
	}
}

func apikey(ctx context.Context, cfg config.Config, args []string, out *bytes.Buffer) error {
	return runAPIKey(ctx, cfg, args, out)
}
func user(ctx context.Context, cfg config.Config, args []string, out *bytes.Buffer) error {
	return runUser(ctx, cfg, args, out)
}
