// Package npmtest installs the npm packages a test drives (official
// clients, reference servers, benchmarks' peers) from the lockfile in a
// folder, once.
package npmtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Install skips the test when node or npm is missing, and otherwise makes
// sure dir/node_modules holds what dir/package-lock.json locks: it runs
// `npm ci` unless every dependency of dir/package.json is installed and
// npm's record of the install is no older than the lockfile.
func Install(t testing.TB, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the npm packages: not run with -short")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: skipping (install Node.js 20+ to run this test)", tool)
		}
	}
	if installed(dir) {
		return
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s failed (%v):\n%s", dir, err, out)
	}
}

// installed reports whether dir's locked packages are all in place.
func installed(dir string) bool {
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	record, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if err != nil || record.ModTime().Before(lock.ModTime()) {
		return false
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return false
	}
	for name := range pkg.Dependencies {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", name, "package.json")); err != nil {
			return false
		}
	}
	return true
}
