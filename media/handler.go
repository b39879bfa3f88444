package media

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/internal/lru"
	"github.com/tripgraph/tripgraph/picture"
)

// PhotoFiles finds a photo's owner and its path under the media root, and
// whether the subject of a generated picture exists.
type PhotoFiles interface {
	PhotoFile(ctx context.Context, photoID string) (ownerID, path string, err error)
	// PictureExists reports whether there is an accommodation, restaurant
	// or album (kind) with this id.
	PictureExists(ctx context.Context, kind, id string) (bool, error)
}

// Handler serves GET /media/photos/{id} (a photo, to its owner only) and
// GET /media/pictures/{kind}/{id}.png (the generated catalog pictures,
// drawn only for ids that exist).
type Handler struct {
	Root   string // the media root directory
	Secret []byte // verifies signed photo URLs
	Photos PhotoFiles
	// Authenticate returns the user a bearer credential belongs to.
	Authenticate func(ctx context.Context, bearer string) (userID string, err error)
	// Session returns the user of the browser session a request carries
	// (its cookie), "" when none: a page's images load with it.
	Session func(r *http.Request) (userID string, err error)
	Logger  *slog.Logger

	once     sync.Once
	pictures *pictureCache
}

// Register adds the handler's routes to mux.
func (h *Handler) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /media/photos/{id}", h.servePhoto)
	mux.HandleFunc("GET /media/pictures/{kind}/{file}", h.servePicture)
}

func (h *Handler) servePhoto(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	owner, path, err := h.Photos.PhotoFile(r.Context(), id)
	if errcode.Of(err) == errcode.NotFound {
		err = noPhoto(r, id)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.authorize(r, id, owner); err != nil {
		h.fail(w, r, err)
		return
	}
	size := picture.Full
	if r.URL.Query().Get("size") == "thumb" {
		size, path = picture.Thumb, "thumbs/"+path
	}
	img, err := OpenImage(h.Root, path)
	if errcode.Of(err) == errcode.NotFound {
		// A generated photo is rendered on its first request and kept.
		img, err = h.render(id, path, size)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer img.Close()
	w.Header().Set("Content-Type", img.ContentType)
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", img.Info.ModTime(), img)
}

func (h *Handler) render(id, path string, size picture.Size) (*Image, error) {
	data, err := picture.PNG(id, size)
	if err != nil {
		return nil, err
	}
	if err := WriteFile(h.Root, path, data); err != nil {
		return nil, err
	}
	return OpenImage(h.Root, path)
}

// authorize lets through a valid signed URL of the photo, or a bearer
// credential or browser session of its owner. Anyone else learns nothing
// of the photo: it is NOT_FOUND for them, as a missing one.
func (h *Handler) authorize(r *http.Request, photoID, owner string) error {
	q := r.URL.Query()
	if sig := q.Get("sig"); sig != "" {
		if validSignature(h.Secret, photoID, owner, q.Get("exp"), sig, time.Now()) {
			return nil
		}
		return noPhoto(r, photoID)
	}
	user, err := h.user(r)
	if err != nil {
		return err
	}
	if user != owner {
		return noPhoto(r, photoID)
	}
	return nil
}

// noPhoto is the answer for a photo that is missing, another user's, or
// behind a link that is invalid or expired: the same for all, so that it
// tells nobody whether the photo exists.
func noPhoto(r *http.Request, photoID string) error {
	if r.URL.Query().Get("sig") != "" {
		return errcode.New(errcode.NotFound, "no photo at this link, or the link has expired")
	}
	return errcode.New(errcode.NotFound, "no photo with id %q", photoID)
}

// user is the user a request's bearer credential, else its browser
// session, belongs to.
func (h *Handler) user(r *http.Request) (string, error) {
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ok && bearer != "" && h.Authenticate != nil {
		user, err := h.Authenticate(r.Context(), strings.TrimSpace(bearer))
		switch code := errcode.Of(err); {
		case err == nil:
			return user, nil
		case code == errcode.Internal || code == errcode.Unavailable:
			return "", errcode.Wrap(errcode.Unavailable, err, "the credential cannot be checked right now; try again later")
		default:
			return "", errcode.Wrap(errcode.Unauthenticated, err, "the credential is not valid")
		}
	}
	if h.Session == nil {
		return "", errUnauthenticated
	}
	user, err := h.Session(r)
	if err != nil {
		return "", errcode.Wrap(errcode.Unavailable, err, "the session cannot be checked right now; try again later")
	}
	if user == "" {
		return "", errUnauthenticated
	}
	return user, nil
}

var errUnauthenticated = errors.New("no credential")

var pictureName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}\.png$`)

var pictureKinds = map[string]bool{"accommodation": true, "restaurant": true, "album": true}

func (h *Handler) servePicture(w http.ResponseWriter, r *http.Request) {
	kind, file := r.PathValue("kind"), r.PathValue("file")
	if !pictureKinds[kind] || !pictureName.MatchString(file) {
		h.fail(w, r, errcode.New(errcode.NotFound, "no such picture"))
		return
	}
	id := strings.TrimSuffix(file, ".png")
	if ok, err := h.Photos.PictureExists(r.Context(), kind, id); err != nil || !ok {
		h.fail(w, r, cmp.Or(err, error(errcode.New(errcode.NotFound, "no such picture"))))
		return
	}
	size := picture.Full
	if r.URL.Query().Get("size") == "thumb" {
		size = picture.Thumb
	}
	h.once.Do(func() { h.pictures = newPictureCache(512) })
	seed := kind + "/" + id
	data, err := h.pictures.get(seed, size)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "public, max-age=86400, immutable")
	etag := fmt.Sprintf(`"%s@%dx%d"`, seed, size.W, size.H)
	w.Header().Set("ETag", etag)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(data)
}

// fail writes err as {"error":{"code","message"}} with its HTTP status.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := errcode.Of(err), errcode.Message(err)
	if errors.Is(err, errUnauthenticated) {
		code, msg = errcode.Unauthenticated, "a bearer credential, a signed link or a browser session is required"
	}
	status := errcode.HTTPStatus(code)
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tripgraph"`)
	}
	if code == errcode.Internal || code == errcode.Unavailable {
		if code == errcode.Internal {
			msg = "internal error"
		}
		if h.Logger != nil {
			h.Logger.Error("serving media", "path", r.URL.Path, "err", err)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(errcode.JSON(&errcode.Error{Code: code, Message: msg}))
}

// pictureCache keeps the most recently served generated pictures.
type pictureCache struct {
	pictures *lru.Cache[string, []byte]
}

func newPictureCache(max int) *pictureCache {
	return &pictureCache{pictures: lru.New[string, []byte](int64(max))}
}

func (c *pictureCache) get(seed string, size picture.Size) ([]byte, error) {
	key := fmt.Sprintf("%s@%dx%d", seed, size.W, size.H)
	if data, ok := c.pictures.Get(key); ok {
		return data, nil
	}
	data, err := picture.PNG(seed, size)
	if err != nil {
		return nil, err
	}
	c.pictures.Put(key, data, 1)
	return data, nil
}
