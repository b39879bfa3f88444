package rawjson

import (
	"fmt"
	"strings"
	"testing"
)

// Object and Array find the spans encoding/json wrote, strings holding
// brackets and escaped quotes included, and refuse text they cannot walk
// (cut short, not compact, a trailing backslash) without reading past it.
func TestObjectAndArray(t *testing.T) {
	members, ok := Object([]byte(`{"a":"x\"}]{[\\","b":[1,{"c":null}],"d":true}`))
	if !ok || len(members) != 3 {
		t.Fatalf("Object: %d members, %v", len(members), ok)
	}
	var got []string
	for _, m := range members {
		got = append(got, string(m.Key)+"="+string(m.Value))
	}
	if want := `"a"="x\"}]{[\\"|"b"=[1,{"c":null}]|"d"=true`; strings.Join(got, "|") != want {
		t.Fatalf("members %s, want %s", strings.Join(got, "|"), want)
	}
	if v, ok := Named(members, "b"); !ok || string(v) != `[1,{"c":null}]` {
		t.Fatalf("Named(b) = %s, %v", v, ok)
	}
	if m, ok := Object([]byte(`{"a":"x\\","b":"y\\\"z","c":1}`)); !ok || len(m) != 3 || string(m[0].Value) != `"x\\"` || string(m[1].Value) != `"y\\\"z"` {
		t.Fatalf("escaped backslashes before quotes: %q, %v", m, ok)
	}
	elems, ok := Array([]byte(`[1,"]",{"a":[2]},[]]`))
	if !ok || len(elems) != 4 || string(elems[2]) != `{"a":[2]}` {
		t.Fatalf("Array: %q, %v", elems, ok)
	}
	for _, bad := range []string{``, `{`, `{"a"`, `{"a":}`, `{"a":1,}`, `{"a":1} `, `{ "a":1}`, `{"a":"\`, `{"a":[1,2}`,
		`{"a":"x"`, `[1,`, `[1 ]`, `[`, `"a"`, `{"a":1}{}`} {
		if _, ok := Object([]byte(bad)); ok {
			t.Errorf("Object(%s) walked text it should refuse", bad)
		}
		if _, ok := Array([]byte(bad)); ok && bad != `[1 ]` {
			t.Errorf("Array(%s) walked text it should refuse", bad)
		}
	}
	if _, ok := Array([]byte(`[1 ]`)); ok {
		t.Error("Array walked text that is not compact")
	}
}

// EachObject walks an array of objects once, handing over each one's
// members, and refuses an array with an element that is not an object.
func TestEachObject(t *testing.T) {
	var got []string
	ok := EachObject([]byte(`[{"a":1,"b":"}"},{},{"c":[{"d":2}]}]`), func(members []Member) {
		var keys []string
		for _, m := range members {
			keys = append(keys, string(m.Key)+"="+string(m.Value))
		}
		got = append(got, strings.Join(keys, ","))
	})
	if want := `"a"=1,"b"="}"||"c"=[{"d":2}]`; !ok || strings.Join(got, "|") != want {
		t.Fatalf("EachObject: %q, %v; want %s", got, ok, want)
	}
	if !EachObject([]byte(`[]`), func([]Member) { t.Fatal("called for an empty array") }) {
		t.Fatal("refused an empty array")
	}
	for _, bad := range []string{``, `[`, `{}`, `[1]`, `[{},1]`, `[{}`, `[{},]`, `[{} ]`, `[{"a":1}]x`, `[{"a"}]`} {
		if EachObject([]byte(bad), func([]Member) {}) {
			t.Errorf("EachObject(%s) walked text it should refuse", bad)
		}
	}
}

// Whatever the text, the walkers stay inside it.
func FuzzObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":"\`, `[{"a":[1,"\"]"]}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		members, _ := Object([]byte(s))
		for _, m := range members {
			Array(m.Value)
			Object(m.Value)
		}
		Array([]byte(s))
		EachObject([]byte(s), func([]Member) {})
	})
}

// Compact tells text with white space between its tokens from text with
// white space only inside its strings.
func TestCompact(t *testing.T) {
	for text, want := range map[string]bool{
		`{"a":"b c","d":[1,2]}`: true,
		`{"a":"\" x"}`:          true,
		`{"a": 1}`:              false,
		"[1,\n2]":               false,
		`{"a":"b"} `:            false,
		``:                      true,
	} {
		if got := Compact([]byte(text)); got != want {
			t.Errorf("Compact(%q) = %v, want %v", text, got, want)
		}
	}
}

// hotelList is text like a component's props: short strings, most of them
// with spaces, a few numbers.
func hotelList() []byte {
	var b strings.Builder
	b.WriteString(`{"toolCallId":"call-7","tool":"list-accommodations","location":"Lisbon","accommodations":[`)
	for i := range 5 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"acc-%d","name":"Casa do Rio %d","city":"Lisbon","country":"Portugal","price":%d,"rating":4.%d,"image":"/media/accommodation/acc-%d.png","description":"A quiet guest house by the river, ten minutes on foot from the old town","amenities":["free wifi","breakfast included","air conditioning"]}`, i, i, 90+i, i, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkCompact(b *testing.B) {
	text := hotelList()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if !Compact(text) {
			b.Fatal("the text is compact")
		}
	}
}
