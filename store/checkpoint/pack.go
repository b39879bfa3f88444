package checkpoint

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// A checkpoint's state, delta and update are JSON. Those of packMin bytes
// or more are stored compressed with zstd when that makes them smaller:
// PostgreSQL compresses a value only when its whole row passes about 2 kB,
// which a step's update seldom does, so without this most of a thread's
// bytes were stored raw. A stored value is told apart by zstd's frame
// magic, which no JSON text begins with, so rows written before either way
// read back alike.
const packMin = 128

var (
	zstdMagic     = []byte{0x28, 0xb5, 0x2f, 0xfd}
	zstdWriter, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	zstdReader, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
)

// pack returns b as it is to be stored: compressed when that is smaller.
func pack(b []byte) []byte {
	if len(b) < packMin {
		return b
	}
	packed := zstdWriter.EncodeAll(b, make([]byte, 0, len(b)/2))
	if len(packed) >= len(b) {
		return b
	}
	return packed
}

// A stored value's first byte is its format's version: JSON text (which
// begins with a printable byte or JSON's whitespace), a zstd frame (its
// magic) holding one of the others, or an update stored as copies from
// its parent (refMarker). The other control bytes are kept for formats to
// come. A release writes a new format only once the release before it
// reads it, so that the two can run together and a downgrade by one
// release reads every row; a release that meets a format it does not
// know says so (errNewerFormat) rather than misread it.
func checkFormat(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	switch c := b[0]; {
	case c >= 0x20, c == '\t', c == '\n', c == '\r', c == refMarker:
		return nil
	default:
		return fmt.Errorf("%w: format %#02x", errNewerFormat, c)
	}
}

// errNewerFormat reports a stored value in a format that a newer release
// wrote and this one does not read.
var errNewerFormat = errors.New("reading a stored checkpoint value: a newer release wrote it in a format this release does not read")

// unpack returns the JSON (or copies from the parent) a stored value
// holds.
func unpack(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, zstdMagic) {
		return b, checkFormat(b)
	}
	out, err := zstdReader.DecodeAll(b, nil)
	if err != nil {
		return nil, fmt.Errorf("decompressing a stored checkpoint value: %w", err)
	}
	return out, checkFormat(out)
}

// packed is pack for a nullable column: nil stays nil.
func packed(b []byte) []byte {
	if b == nil {
		return nil
	}
	return pack(b)
}

// unpack turns the row's stored values back into JSON.
func (r *cpRow) unpack() (err error) {
	for _, v := range []*[]byte{&r.state, &r.delta, &r.update} {
		if *v, err = unpack(*v); err != nil {
			return fmt.Errorf("reading checkpoint %s: %w", r.id, err)
		}
	}
	return nil
}
