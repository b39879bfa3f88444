package ui_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedUpToDate regenerates the templ output from the .templ files
// in a scratch directory, with the templ version pinned in go.mod, and
// fails when the committed *_templ.go files differ: run `make generate`.
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the templ generator")
	}
	sources, err := filepath.Glob("*.templ")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no .templ files found: %v", err)
	}
	scratch := t.TempDir()
	for _, src := range sources {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(scratch, src), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "tool", "templ", "generate", "-path", scratch)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("templ generate: %v\n%s", err, out)
	}
	for _, src := range sources {
		name := src[:len(src)-len(".templ")] + "_templ.go"
		want, err := os.ReadFile(filepath.Join(scratch, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s is not committed: run make generate (%v)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run make generate", name)
		}
	}
}
