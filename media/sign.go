package media

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"time"
)

// URLs makes the addresses of photos and pictures, as clients see them.
type URLs struct {
	Base   string // the server's public URL, such as http://localhost:8080
	Secret []byte // signs photo URLs
	TTL    time.Duration
}

// PhotoURL returns a URL for one size ("full" or "thumb") of a photo that
// its owner may fetch without any other credential until it expires; ""
// when u has no Base or no Secret, where no link could work.
func (u URLs) PhotoURL(photoID, ownerID, size string) string {
	if u.Base == "" || len(u.Secret) == 0 {
		return ""
	}
	exp := time.Now().Add(u.TTL).Unix()
	q := url.Values{}
	if size == "thumb" {
		q.Set("size", "thumb")
	}
	q.Set("exp", strconv.FormatInt(exp, 10))
	q.Set("sig", photoSignature(u.Secret, photoID, ownerID, exp))
	return u.Base + "/media/photos/" + url.PathEscape(photoID) + "?" + q.Encode()
}

// PictureURL returns the URL of the generated picture of a catalog entry
// (kind is "accommodation", "restaurant" or "album"); "" when u has no
// Base.
func (u URLs) PictureURL(kind, id string) string {
	if u.Base == "" {
		return ""
	}
	return u.Base + "/media/pictures/" + url.PathEscape(kind) + "/" + url.PathEscape(id) + ".png"
}

func photoSignature(secret []byte, photoID, ownerID string, exp int64) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("photo\x00" + photoID + "\x00" + ownerID + "\x00" + strconv.FormatInt(exp, 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// validSignature reports whether sig signs the photo for its owner and has
// not expired at now.
func validSignature(secret []byte, photoID, ownerID, exp, sig string, now time.Time) bool {
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !now.Before(time.Unix(unix, 0)) || len(secret) == 0 {
		return false
	}
	return hmac.Equal([]byte(sig), []byte(photoSignature(secret, photoID, ownerID, unix)))
}
