// Package media serves images safely: the user's photos from a media root
// on disk, only to their owner, and the generated pictures of the catalog.
// A path never leaves the media root: empty paths, NUL bytes, absolute
// paths and ".." are refused, and the real paths of the root and of the
// file (symlinks resolved) are compared before anything is opened.
package media

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/tripgraph/tripgraph/errcode"
)

// checkRel refuses the relative paths that could name something outside a
// root before anything touches the disk.
func checkRel(rel string) error {
	switch {
	case rel == "":
		return errcode.New(errcode.BadRequest, "empty media path")
	case strings.ContainsRune(rel, 0):
		return errcode.New(errcode.BadRequest, "media path contains a NUL byte")
	case filepath.IsAbs(rel), strings.HasPrefix(rel, "/"), strings.HasPrefix(rel, `\`), filepath.VolumeName(rel) != "":
		return errcode.New(errcode.Forbidden, "media path %q is absolute", rel)
	}
	for _, part := range strings.FieldsFunc(rel, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return errcode.New(errcode.Forbidden, "media path %q contains ..", rel)
		}
	}
	return nil
}

// within reports whether the clean absolute path p is root or inside it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// Resolve returns the real path of the file rel names under root, with
// every symlink resolved. It fails with BAD_REQUEST or FORBIDDEN for a path
// that is empty, holds a NUL, is absolute, contains "..", or resolves
// outside root; with NOT_FOUND when there is no such file.
func Resolve(root, rel string) (string, error) {
	if err := checkRel(rel); err != nil {
		return "", err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("resolving the media root %s: %w", root, err)
	}
	p, err := filepath.EvalSymlinks(filepath.Join(realRoot, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", errcode.New(errcode.NotFound, "no media file %q", rel)
	}
	if err != nil {
		return "", fmt.Errorf("resolving media path %q: %w", rel, err)
	}
	if !within(realRoot, p) {
		return "", errcode.New(errcode.Forbidden, "media path %q leads outside the media root", rel)
	}
	return p, nil
}

// Image is an open image file of the media root.
type Image struct {
	*os.File
	ContentType string
	Info        fs.FileInfo
}

// OpenImage opens the image rel names under root. On top of Resolve's
// checks, the file is opened through an os.Root, so that a symlink swapped
// in after the check still cannot lead outside, and it must be a regular
// file whose content sniffs as an image (else UNSUPPORTED_MEDIA).
func OpenImage(root, rel string) (*Image, error) {
	p, err := Resolve(root, rel)
	if err != nil {
		return nil, err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("resolving the media root %s: %w", root, err)
	}
	inside, err := filepath.Rel(realRoot, p)
	if err != nil {
		return nil, fmt.Errorf("relating %s to the media root: %w", p, err)
	}
	f, err := os.OpenInRoot(realRoot, inside)
	if err != nil {
		return nil, errcode.Wrap(errcode.Forbidden, err, fmt.Sprintf("media path %q cannot be opened inside the media root", rel))
	}
	img, err := sniff(f, rel)
	if err != nil {
		f.Close()
		return nil, err
	}
	return img, nil
}

func sniff(f *os.File, rel string) (*Image, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading media file %q: %w", rel, err)
	}
	if !info.Mode().IsRegular() {
		return nil, errcode.New(errcode.UnsupportedMedia, "media path %q is not a file", rel)
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading media file %q: %w", rel, err)
	}
	ct := http.DetectContentType(head[:n])
	if !strings.HasPrefix(ct, "image/") {
		return nil, errcode.New(errcode.UnsupportedMedia, "media file %q is not an image (%s)", rel, ct)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("rewinding media file %q: %w", rel, err)
	}
	return &Image{File: f, ContentType: ct, Info: info}, nil
}

// WriteFile stores data at rel under root, creating directories as
// needed, atomically (a temporary file renamed into place). Every directory
// on the way must resolve inside root.
func WriteFile(root, rel string, data []byte) error {
	if err := checkRel(rel); err != nil {
		return err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("resolving the media root %s: %w", root, err)
	}
	r, err := os.OpenRoot(realRoot)
	if err != nil {
		return fmt.Errorf("opening the media root: %w", err)
	}
	defer r.Close()
	dir, name := filepath.Split(filepath.FromSlash(rel))
	if dir != "" {
		if err := r.MkdirAll(filepath.Clean(dir), 0o755); err != nil {
			return errcode.Wrap(errcode.Forbidden, err, fmt.Sprintf("cannot make the directory of %q inside the media root", rel))
		}
	}
	tmp := filepath.Join(dir, "."+name+".tmp")
	if err := r.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("writing media file %q: %w", rel, err)
	}
	if err := r.Rename(tmp, filepath.FromSlash(rel)); err != nil {
		r.Remove(tmp)
		return fmt.Errorf("renaming media file %q into place: %w", rel, err)
	}
	return nil
}
