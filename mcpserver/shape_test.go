package mcpserver

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// shapeCase is an output with what shaping acts on: null arrays and
// scalars (nil slices and pointers), objects in arrays, a map, an
// embedded struct, strings that encoding/json escapes, and numbers of
// every form it writes.
type shapeCase struct {
	CityOut
	Stays    []AccommodationOut `json:"stays"`
	Dining   []RestaurantOut    `json:"dining"`
	Nothing  []string           `json:"nothing"`
	Maybe    *float64           `json:"maybe"`
	Inner    *shapeInner        `json:"inner"`
	Inners   []shapeInner       `json:"inners"`
	Counts   map[string]int     `json:"counts"`
	Text     string             `json:"text"`
	Number   float64            `json:"number"`
	Zeta     string             `json:"zeta,omitempty"`
	Alphabet string             `json:"Alphabet"`
}

type shapeInner struct {
	List  []int    `json:"list"`
	Label *string  `json:"label"`
	Tags  []string `json:"tags,omitempty"`
}

func shapeCases() []shapeCase {
	label := "a <b> & \"c\""
	half := 0.5
	return []shapeCase{
		{},
		{CityOut: CityOut{Location: "Lisbon", Covered: true, Place: &PlaceOut{Name: "Lisboa", Country: "PT", Lat: 38.7, Lng: -9.1}},
			Stays:  []AccommodationOut{{ID: "s1", Name: "Casa <Alfama> & Co", NightlyPrice: 95.5, Rating: 4.6}, {}},
			Dining: []RestaurantOut{{}}, Maybe: &half, Inner: &shapeInner{Label: &label},
			Inners: []shapeInner{{}, {List: []int{1, 2}, Tags: []string{"x"}}},
			Counts: map[string]int{"b": 2, "a": 1, "é": 3, "Z": 4, "a b": 5},
			Text:   "line\nbreak\ttab \u2028 \u0001 café 日本 \\ /", Number: 1e21, Alphabet: "first"},
		{Text: strings.Repeat("x", 3000), Number: math.SmallestNonzeroFloat64, Inners: []shapeInner{}, Counts: map[string]int{}},
		{Number: -0.000001, Nothing: []string{}, Zeta: "z"},
	}
}

// The walk gives, byte for byte, what decoding, shaping and encoding again
// gives: with and without the links note, for every case.
func TestShapeWalkedAsDecoded(t *testing.T) {
	s, err := jsonschema.For[shapeCase](nil)
	if err != nil {
		t.Fatal(err)
	}
	portable(s)
	if !plainJSON(reflect.TypeFor[shapeCase]()) {
		t.Fatal("the cases' type is not plain JSON")
	}
	for i, c := range shapeCases() {
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, note := range []string{"", "no links <here>"} {
			want, err := shapeDecoded(data, s, note)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := shapeWalked(nil, data, s, note)
			if !ok || string(got) != string(want) {
				t.Errorf("case %d, note %q: walked (ok %v)\n%s\ndecoded\n%s", i, note, ok, got, want)
			}
		}
	}
}

// Types that encode themselves, or hold an interface, are not plain: their
// text might not be what encoding it again writes.
func TestPlainJSON(t *testing.T) {
	type withTime struct{ At time.Time }
	type withAny struct{ V any }
	type withRaw struct{ R json.RawMessage }
	type recursive struct{ Next *recursive }
	for _, c := range []struct {
		t    reflect.Type
		want bool
	}{
		{reflect.TypeFor[shapeCase](), true}, {reflect.TypeFor[recursive](), true},
		{reflect.TypeFor[withTime](), false}, {reflect.TypeFor[withAny](), false}, {reflect.TypeFor[withRaw](), false},
	} {
		if got := plainJSON(c.t); got != c.want {
			t.Errorf("plainJSON(%v) = %v, want %v", c.t, got, c.want)
		}
	}
}

// FuzzShapeWalked holds the walk to the decoding over any strings and
// numbers in an output.
func FuzzShapeWalked(f *testing.F) {
	f.Add("Lisbon", "Casa <Alfama>", 95.5, 3)
	f.Add("\u2028\x00\xff", "\"quoted\"", 1e-7, 0)
	s, err := jsonschema.For[shapeCase](nil)
	if err != nil {
		f.Fatal(err)
	}
	portable(s)
	f.Fuzz(func(t *testing.T, location, name string, price float64, n int) {
		if math.IsNaN(price) || math.IsInf(price, 0) {
			return
		}
		c := shapeCase{CityOut: CityOut{Location: location}, Text: name, Number: price, Counts: map[string]int{name: n, location: -n}}
		for range n % 4 {
			c.Stays = append(c.Stays, AccommodationOut{Name: name, NightlyPrice: price})
		}
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := shapeDecoded(data, s, location)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := shapeOutput(data, s, location, true); err != nil || string(got) != string(want) {
			t.Fatalf("walked\n%s\n(%v), decoded\n%s", got, err, want)
		}
	})
}

// BenchmarkShapeOutput shapes an output of twenty stays by walking its
// text and by decoding it.
func BenchmarkShapeOutput(b *testing.B) {
	s, err := jsonschema.For[shapeCase](nil)
	if err != nil {
		b.Fatal(err)
	}
	portable(s)
	c := shapeCases()[1]
	for i := range 20 {
		c.Stays = append(c.Stays, AccommodationOut{ID: strings.Repeat("s", i+1), Name: "Casa do Largo", NightlyPrice: 95.5, Rating: 4.6, Lat: 38.71, Lng: -9.13})
	}
	data, err := json.Marshal(c)
	if err != nil {
		b.Fatal(err)
	}
	for name, plain := range map[string]bool{"walked": true, "decoded": false} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := shapeOutput(data, s, "", plain); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
