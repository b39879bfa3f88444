// Package picture draws tripgraph's stand-in images: deterministic
// landscapes (a sky gradient, a sun, hills and a skyline) chosen by a seed
// string, so that every photo and catalog entry has a picture of its own
// without any external image.
package picture

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
)

// Size is an image size in pixels.
type Size struct{ W, H int }

// The sizes tripgraph serves.
var (
	Full  = Size{640, 400}
	Thumb = Size{240, 150}
)

// MaxSide is the largest width or height Draw accepts.
const MaxSide = 2048

// rng is a small deterministic generator (splitmix64) seeded by the seed.
type rng struct{ s uint64 }

func newRNG(seed string) *rng {
	h := sha256.Sum256([]byte(seed))
	return &rng{binary.LittleEndian.Uint64(h[:8])}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a number in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// hsv returns an opaque colour from hue in [0, 360), saturation and value
// in [0, 1].
func hsv(h, s, v float64) color.RGBA {
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := v - c
	var r, g, b float64
	switch {
	case h < 60:
		r, g = c, x
	case h < 120:
		r, g = x, c
	case h < 180:
		g, b = c, x
	case h < 240:
		g, b = x, c
	case h < 300:
		r, b = x, c
	default:
		r, b = c, x
	}
	return color.RGBA{uint8((r + m) * 255), uint8((g + m) * 255), uint8((b + m) * 255), 255}
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 255}
}

// Draw returns the image for seed at size. The same seed and size always
// give the same pixels.
func Draw(seed string, size Size) (*image.RGBA, error) {
	if size.W < 1 || size.H < 1 || size.W > MaxSide || size.H > MaxSide {
		return nil, fmt.Errorf("drawing %q: size %dx%d is out of range", seed, size.W, size.H)
	}
	r := newRNG(seed)
	img := image.NewRGBA(image.Rect(0, 0, size.W, size.H))
	hue := r.float() * 360
	top := hsv(hue, 0.55+0.3*r.float(), 0.55+0.35*r.float())
	bottom := hsv(math.Mod(hue+40+60*r.float(), 360), 0.35+0.3*r.float(), 0.9)
	sky(img, top, bottom)
	sun(img, r, mix(bottom, color.RGBA{255, 245, 200, 255}, 0.7))
	for layer := range 3 {
		hills(img, r, layer, hsv(math.Mod(hue+180+30*r.float(), 360), 0.4, 0.55-0.15*float64(layer)))
	}
	if r.float() < 0.6 {
		skyline(img, r, hsv(math.Mod(hue+200, 360), 0.3, 0.2))
	}
	return img, nil
}

func sky(img *image.RGBA, top, bottom color.RGBA) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		c := mix(top, bottom, float64(y)/float64(b.Dy()))
		for x := b.Min.X; x < b.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func sun(img *image.RGBA, r *rng, c color.RGBA) {
	b := img.Bounds()
	cx, cy := r.float()*float64(b.Dx()), (0.15+0.3*r.float())*float64(b.Dy())
	rad := (0.06 + 0.06*r.float()) * float64(b.Dx())
	for y := max(0, int(cy-rad)); y < min(b.Dy(), int(cy+rad)+1); y++ {
		for x := max(0, int(cx-rad)); x < min(b.Dx(), int(cx+rad)+1); x++ {
			if math.Hypot(float64(x)-cx, float64(y)-cy) <= rad {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

// hills fills the area under a sum of sines; later layers sit lower.
func hills(img *image.RGBA, r *rng, layer int, c color.RGBA) {
	b := img.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	base := h * (0.55 + 0.12*float64(layer))
	amp1, amp2 := h*(0.04+0.06*r.float()), h*(0.02+0.03*r.float())
	f1, f2 := 1+3*r.float(), 4+6*r.float()
	p1, p2 := r.float()*2*math.Pi, r.float()*2*math.Pi
	for x := 0; x < b.Dx(); x++ {
		t := float64(x) / w * 2 * math.Pi
		top := int(base - amp1*math.Sin(f1*t+p1) - amp2*math.Sin(f2*t+p2))
		for y := max(0, top); y < b.Dy(); y++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// skyline draws a row of buildings along the bottom.
func skyline(img *image.RGBA, r *rng, c color.RGBA) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	for x := 0; x < w; {
		bw := max(4, int(float64(w)*(0.03+0.05*r.float())))
		bh := int(float64(h) * (0.08 + 0.22*r.float()))
		for y := h - bh; y < h; y++ {
			for xx := x; xx < min(w, x+bw); xx++ {
				img.SetRGBA(xx, y, c)
			}
		}
		x += bw + int(float64(w)*0.01*r.float())
	}
}

// PNG draws the image for seed at size and encodes it as PNG.
func PNG(seed string, size Size) ([]byte, error) {
	img, err := Draw(seed, size)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encoding the image for %q: %w", seed, err)
	}
	return buf.Bytes(), nil
}

func encode(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, img)
}
