package media

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/picture"
)

// mediaTree makes a media root and, next to it, a directory outside it:
//
//	root/photos/a.png           an image
//	root/photos/notes.txt       not an image
//	root/photos/dir/            a directory
//	root/inside.png ->  photos/a.png          symlink within the root
//	root/escape.png ->  ../outside/secret.png symlink out of the root
//	root/photos/up  ->  ../../outside          directory symlink out
//	outside/secret.png          an image outside the root
func mediaTree(t *testing.T) (root string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "root")
	png, err := picture.PNG("x", picture.Thumb)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"root/photos/dir", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string][]byte{
		"root/photos/a.png":     png,
		"root/photos/notes.txt": []byte("hello, not an image"),
		"outside/secret.png":    png,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(base, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"root/inside.png": "photos/a.png",
		"root/escape.png": "../outside/secret.png",
		"root/photos/up":  "../../outside",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestOpenImage(t *testing.T) {
	root := mediaTree(t)
	for _, tc := range []struct {
		path string
		want errcode.Code // "" for success
	}{
		{"photos/a.png", ""},
		{"inside.png", ""},
		{"photos/./a.png", ""},
		{"", errcode.BadRequest},
		{"photos/a.png\x00.txt", errcode.BadRequest},
		{"/etc/passwd", errcode.Forbidden},
		{`\photos\a.png`, errcode.Forbidden},
		{"../outside/secret.png", errcode.Forbidden},
		{"photos/../../outside/secret.png", errcode.Forbidden},
		{`photos\..\..\outside\secret.png`, errcode.Forbidden},
		{"escape.png", errcode.Forbidden},
		{"photos/up/secret.png", errcode.Forbidden},
		{"photos/notes.txt", errcode.UnsupportedMedia},
		{"photos/dir", errcode.UnsupportedMedia},
		{"photos/missing.png", errcode.NotFound},
	} {
		img, err := OpenImage(root, tc.path)
		if tc.want == "" {
			if err != nil || img.ContentType != "image/png" {
				t.Errorf("OpenImage(%q) = %v, want a PNG", tc.path, err)
			}
			if img != nil {
				img.Close()
			}
			continue
		}
		if got := errcode.Of(err); got != tc.want {
			t.Errorf("OpenImage(%q) = %v (%s), want %s", tc.path, err, got, tc.want)
		}
	}
}

func TestWriteFile(t *testing.T) {
	root := mediaTree(t)
	if err := WriteFile(root, "cache/new/b.png", []byte("data")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(root, "cache/new/b.png")); err != nil || string(got) != "data" {
		t.Fatalf("read back %q, %v", got, err)
	}
	for _, tc := range []struct {
		path string
		want errcode.Code
	}{
		{"../outside/x.png", errcode.Forbidden},
		{"/tmp/x.png", errcode.Forbidden},
		{"", errcode.BadRequest},
		{"photos/up/x.png", errcode.Forbidden},
	} {
		if err := WriteFile(root, tc.path, []byte("x")); errcode.Of(err) != tc.want {
			t.Errorf("WriteFile(%q) = %v, want %s", tc.path, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "outside", "x.png")); err == nil {
		t.Error("a file was written outside the root")
	}
}
