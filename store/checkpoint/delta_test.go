package checkpoint

import (
	"bytes"
	"testing"
)

func TestParseObjectRebuildsExactly(t *testing.T) {
	tests := []struct {
		in    string
		exact bool
	}{
		{`{}`, true},
		{`{"a":1}`, true},
		{`{"a":[],"b":[1,{"x":"]}"},"s\"[,"],"c":null,"d":{"e":[1,2]}}`, true},
		{`{"k\u00e9":"<\u003c>","n":-1.5e3,"t":true}`, true},
		{`{"a": 1}`, false},
		{`{"a":[1, 2]}`, false},
		{` {"a":1}`, false},
		{`[1,2]`, false},
		{`"x"`, false},
		{`{"a":1`, false},
		{``, false},
	}
	for _, tt := range tests {
		obj, err := parseObject([]byte(tt.in))
		if (err == nil) != tt.exact {
			t.Errorf("parseObject(%s) error = %v, want exact %v", tt.in, err, tt.exact)
			continue
		}
		if err == nil && string(obj.encode()) != tt.in {
			t.Errorf("parseObject(%s).encode() = %s", tt.in, obj.encode())
		}
	}
}

func TestDeltaRoundTrip(t *testing.T) {
	tests := []struct {
		name, parent, state, update string
		wantOps                     string // a substring the delta must contain
	}{
		{"unchanged", `{"m":[1,2],"t":"a"}`, `{"m":[1,2],"t":"a"}`, ``, `[0,0,0]`},
		{"append", `{"m":[1,2],"t":"a"}`, `{"m":[1,2,{"x":3}],"t":"b"}`, `{"t":"b"}`, `[1,{"x":3}]`},
		{"append from update", `{"m":[1],"u":[]}`, `{"m":[1,"hi"],"u":["c"]}`, `{"m":["hi"],"u":["c"]}`, `[0,[2],[2]]`},
		{"append from another update key", `{"m":[1]}`, `{"m":[1,"hi"]}`, `{"x":["hi"]}`, `[0,[2,"x"]]`},
		{"value from update", `{"t":"a","d":{"x":1},"l":[1]}`, `{"t":"b","d":{"x":2},"l":[2]}`, `{"t":"b","d":{"x":2},"l":[2]}`, `[0,[4],[4],[4]]`},
		{"replace", `{"m":[1,2]}`, `{"m":[2]}`, ``, `[3,[2]]`},
		{"new key", `{"a":1}`, `{"a":1,"b":[5]}`, ``, `["a","b"]`},
		{"dropped key", `{"a":1,"b":2}`, `{"b":2}`, ``, `[["b"],0]`},
		{"reordered keys", `{"a":1,"b":2}`, `{"b":2,"a":1}`, ``, `[["b","a"],0,0]`},
		{"scalar to array", `{"a":1}`, `{"a":[1]}`, ``, `[3,[1]]`},
		{"array to scalar", `{"a":[1]}`, `{"a":null}`, ``, `[3,null]`},
		{"update not an object", `{"m":[1]}`, `{"m":[1,2]}`, `[2]`, `[1,2]`},
		{"empty update array", `{"m":[1]}`, `{"m":[1]}`, `{"m":[]}`, `[0,0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, err := parseObject([]byte(tt.parent))
			if err != nil {
				t.Fatal(err)
			}
			state, err := parseObject([]byte(tt.state))
			if err != nil {
				t.Fatal(err)
			}
			delta := makeDelta(parent, state, []byte(tt.update))
			if !bytes.Contains(delta, []byte(tt.wantOps)) {
				t.Errorf("delta %s lacks %s", delta, tt.wantOps)
			}
			got, err := applyDelta(parent, delta, []byte(tt.update))
			if err != nil {
				t.Fatalf("applyDelta(%s): %v", delta, err)
			}
			if string(got.encode()) != tt.state {
				t.Errorf("rebuilt %s, want %s (delta %s)", got.encode(), tt.state, delta)
			}
		})
	}
}

// Two children of one parent must not share the parent's element slice.
func TestApplyDeltaDoesNotAlias(t *testing.T) {
	parent, _ := parseObject([]byte(`{"m":[1,2,3]}`))
	a, err := applyDelta(parent, []byte(`[0,[1,4]]`), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := applyDelta(parent, []byte(`[0,[1,5]]`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(a.encode()) != `{"m":[1,2,3,4]}` || string(b.encode()) != `{"m":[1,2,3,5]}` {
		t.Fatalf("siblings interfere: %s and %s", a.encode(), b.encode())
	}
}

func TestApplyDeltaRejectsMalformed(t *testing.T) {
	parent, _ := parseObject([]byte(`{"m":[1],"s":"x"}`))
	for _, delta := range []string{``, `[]`, `[0]`, `[0,0]`, `[0,[9,1],0]`, `[0,0,[1,2]]`, `[0,[2,"zz"],0]`, `[0,[2,"s"],0]`, `[0,0,[4]]`, `[["q"],0]`, `x`} {
		if _, err := applyDelta(parent, []byte(delta), []byte(`{"m":[2]}`)); err == nil {
			t.Errorf("applyDelta accepted %q", delta)
		}
	}
}

// encodes tells an object's own text from any other, without making it.
func TestObjectEncodes(t *testing.T) {
	raw := []byte(`{"messages":[{"id":"a"},{"id":"b"}],"ui":[],"n":1}`)
	obj, err := parseObject(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !obj.encodes(raw) || string(obj.encode()) != string(raw) {
		t.Fatal("an object does not encode the text it was split from")
	}
	for _, other := range []string{`{"messages":[{"id":"a"},{"id":"b"}],"ui":[],"n":2}`, `{"messages":[{"id":"a"}],"ui":[],"n":1}`,
		`{"messages":[{"id":"a"},{"id":"b"}],"ui":[],"n":1} `, `{"messages":[{"id":"a"},{"id":"b"}],"ui":[],"n":1`, `{}`, ``} {
		if obj.encodes([]byte(other)) {
			t.Errorf("the object says it encodes %s", other)
		}
	}
}

// parseAfter splits a child's state as parseObject does, whatever the
// child repeats of its parent: the same members, arrays that grow, values
// that the parent's are a prefix of, members added, removed or moved.
func TestParseAfterSplitsAsParseObject(t *testing.T) {
	parent := `{"n":12,"s":"a,b","list":[1,"x]",{"k":[2]}],"t":true,"o":{"a":[1]}}`
	children := []string{
		parent,
		`{"n":12,"s":"a,b","list":[1,"x]",{"k":[2]},4,"y"],"t":true,"o":{"a":[1]}}`,
		`{"n":123,"s":"a,bc","list":[1,"x]",{"k":[2]}],"t":true,"o":{"a":[1],"b":2}}`,
		`{"n":12,"s":"a,b","list":[10,"x]",{"k":[2]}],"t":false,"o":{"a":[1]}}`,
		`{"n":12,"s":"a,b","list":[1],"t":true,"o":{"a":[1]}}`,
		`{"n":12,"s":"a,b","list":[],"t":true,"o":{"a":[1]}}`,
		`{"n":12,"list":[1,"x]",{"k":[2]},3],"s":"a,b","t":true,"o":{"a":[1]},"new":[1]}`,
		`{"n":13,"s":"a,c","list":[2,"x]",{"k":[3]}],"t":true,"o":{"a":[2]}}`,
		`{"n":12}`,
		`{}`,
		`{"n":[12],"s":["a,b"],"list":"[1]"}`,
		`[1,2]`,
		`{"n":12,"s":"a,b","list":[1,"x]",{"k":[2]}`,
	}
	p, err := parseObject([]byte(parent))
	if err != nil {
		t.Fatal(err)
	}
	for _, child := range children {
		want, wantErr := parseObject([]byte(child))
		got, err := parseAfter([]byte(child), p)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("parseAfter(%s) error %v, parseObject's %v", child, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if len(got) != len(want) {
			t.Errorf("parseAfter(%s) = %d members, parseObject %d", child, len(got), len(want))
			continue
		}
		for i := range want {
			g, w := got[i], want[i]
			if string(g.key) != string(w.key) || g.array != w.array || string(g.value) != string(w.value) ||
				string(appendArray(nil, g.elems)) != string(appendArray(nil, w.elems)) || len(g.elems) != len(w.elems) {
				t.Errorf("parseAfter(%s): member %d is %s %s %q, parseObject's %s %s %q", child, i,
					g.key, g.value, g.elems, w.key, w.value, w.elems)
			}
		}
		if !got.encodes([]byte(child)) {
			t.Errorf("parseAfter(%s) does not encode it", child)
		}
	}
}
