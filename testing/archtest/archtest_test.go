// Package archtest holds docs/architecture.md to the code: the table of
// which package imports which, in that document, must be what the
// packages really import.
package archtest

import (
	"bufio"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tripgraph/tripgraph"

var update = flag.Bool("update", false, "rewrite docs/architecture.md's imports block from go list")

// TestImportPictureIsTrue compares the imports block of
// docs/architecture.md with `go list`: every package of the product (all
// but benchmarks, end-to-end and interop tests, and the packages that
// exist for tests, whose names end in "test") and the packages of ours it
// imports, outside its tests.
func TestImportPictureIsTrue(t *testing.T) {
	doc := filepath.Join("..", "..", "docs", "architecture.md")
	actual := actualImports(t)
	if *update {
		rewrite(t, doc, actual)
		return
	}
	documented := documentedImports(t, doc)
	for pkg, want := range actual {
		got, ok := documented[pkg]
		switch {
		case !ok:
			t.Errorf("%s is missing from docs/architecture.md; it imports: %s", pkg, strings.Join(want, " "))
		case !slices.Equal(got, want):
			t.Errorf("%s: docs/architecture.md says it imports %q; it imports %q", pkg, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("docs/architecture.md lists %s, which is not a package of the product", pkg)
		}
	}
}

// documentedImports reads the ```imports block: one line per package,
// "pkg: dep dep", paths relative to the module.
func documentedImports(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "```imports":
			in = true
		case in && line == "```":
			return out
		case in && line != "":
			pkg, deps, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("%s: %q is not \"package: imports\"", path, line)
			}
			list := strings.Fields(deps)
			slices.Sort(list)
			out[strings.TrimSpace(pkg)] = list
		}
	}
	t.Fatalf("%s has no ```imports block", path)
	return nil
}

// actualImports lists the product's packages with the packages of ours
// each imports.
func actualImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for pkg, imports := range allImports(t) {
		if !product(pkg) {
			continue
		}
		deps := []string{}
		for _, imp := range imports {
			if !strings.Contains(imp, ".") && !isStd(imp) {
				deps = append(deps, imp)
			}
		}
		slices.Sort(deps)
		out[pkg] = deps
	}
	return out
}

func relative(path string) string { return strings.TrimPrefix(path, module+"/") }

// product reports whether a package is part of the product, not of its
// tests and benchmarks.
func product(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	if first == "bench" || first == "e2e" || first == "interop" || first == "testing" {
		return false
	}
	return !strings.HasSuffix(filepath.Base(pkg), "test") &&
		!strings.HasSuffix(pkg, "/internal/gen")
}

// rewrite replaces the imports block of the document at path with imports.
func rewrite(t *testing.T, path string, imports map[string][]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "```imports\n")
	if start < 0 {
		t.Fatalf("%s has no ```imports block", path)
	}
	start += len("```imports\n")
	end := strings.Index(text[start:], "```")
	if end < 0 {
		t.Fatalf("%s: the imports block does not end", path)
	}
	var b strings.Builder
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		b.WriteString(strings.TrimSpace(pkg+": "+strings.Join(imports[pkg], " ")) + "\n")
	}
	text = text[:start] + b.String() + text[start+end:]
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
