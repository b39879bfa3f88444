package picture

import (
	"bytes"
	"image/png"
	"testing"
)

func TestPNGIsDeterministic(t *testing.T) {
	a, err := PNG("photo-1", Thumb)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PNG("photo-1", Thumb)
	c, _ := PNG("photo-2", Thumb)
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave different images")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds gave the same image")
	}
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil || img.Bounds().Dx() != Thumb.W || img.Bounds().Dy() != Thumb.H {
		t.Fatalf("decoded %v, %v; want a %dx%d PNG", img.Bounds(), err, Thumb.W, Thumb.H)
	}
}

func TestDrawRejectsBadSizes(t *testing.T) {
	for _, s := range []Size{{0, 10}, {10, -1}, {MaxSide + 1, 10}} {
		if _, err := Draw("x", s); err == nil {
			t.Errorf("Draw(%v) succeeded", s)
		}
	}
}

func BenchmarkPNGFull(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		PNG(string(rune(i)), Full)
	}
}
