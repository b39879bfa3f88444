package npmtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A folder counts as installed only when npm's record of the install is
// no older than the lockfile and every declared dependency is there.
func TestInstalled(t *testing.T) {
	write := func(t *testing.T, path, data string, at time.Time) {
		t.Helper()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, at, at)
	}
	now := time.Now()
	tests := []struct {
		name     string
		recorded time.Time // when npm recorded its install
		has      []string  // packages present in node_modules
		want     bool
	}{
		{"everything installed after the lock", now, []string{"a", "@s/b"}, true},
		{"installed before the lock changed", now.Add(-time.Hour), []string{"a", "@s/b"}, false},
		{"a dependency missing", now, []string{"a"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "package.json"), `{"dependencies":{"a":"1.0.0","@s/b":"2.0.0"}}`, now)
			write(t, filepath.Join(dir, "package-lock.json"), `{}`, now.Add(-time.Minute))
			write(t, filepath.Join(dir, "node_modules", ".package-lock.json"), `{}`, tt.recorded)
			for _, p := range tt.has {
				write(t, filepath.Join(dir, "node_modules", p, "package.json"), `{}`, now)
			}
			if got := installed(dir); got != tt.want {
				t.Fatalf("installed = %v, want %v", got, tt.want)
			}
		})
	}
}
