package tenanttest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/items"
)

// testItems is the long-term store: items put, read, replaced and
// deleted; what it refuses; each user's items apart; searches by prefix,
// filter and text, best matches first; namespaces listed; times to live
// that run out unless a read refreshes them.
func testItems(t *testing.T, b Backend) {
	subtests(t, b, []subtest{
		{"put, get and delete", itemsPutGetDelete},
		{"refusals", itemsRefusals},
		{"owners apart", itemsOwnersApart},
		{"search", itemsSearch},
		{"ranking", itemsRanking},
		{"at the bounds", itemsAtTheBounds},
		{"namespaces", itemsNamespaces},
		{"time to live", itemsTTL},
		{"get each", itemsGetEach},
	})
}

// putItem stores an item, indexed whole, without a time to live.
func putItem(t *testing.T, it tenant.Items, ns []string, key, value string) {
	t.Helper()
	if err := it.Put(context.Background(), items.PutItem{Namespace: ns, Key: key, Value: json.RawMessage(value)}); err != nil {
		t.Fatal(err)
	}
}

// putInTurn stores items one after another, each updated later than the
// one before (the stores keep times to the microsecond).
func putInTurn(t *testing.T, it tenant.Items, puts ...items.PutItem) {
	t.Helper()
	for _, p := range puts {
		if err := it.Put(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
}

func itemKeys(list []items.Item) []string {
	out := []string{}
	for _, it := range list {
		out = append(out, it.Key)
	}
	return out
}

// An item reads back as it was put; a replaced one keeps its creation time
// and its update time moves on by at least a millisecond; a deleted one is
// gone, and deleting it again is no error.
func itemsPutGetDelete(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t)).Items
	ns := []string{"prefs", "food"}
	putItem(t, mine, ns, "k", `{"diet":"vegetarian","n":1.5,"tags":["a",{"b":null}]}`)
	first, ok, err := mine.Get(ctx, ns, "k", true)
	if err != nil || !ok {
		t.Fatalf("get after put: %v %v", ok, err)
	}
	if !sameJSON(first.Value, []byte(`{"diet":"vegetarian","n":1.5,"tags":["a",{"b":null}]}`)) ||
		!slices.Equal(first.Namespace, ns) || first.Key != "k" || first.Score != nil {
		t.Errorf("got %+v (%s)", first, first.Value)
	}
	if first.CreatedAt.IsZero() || !first.UpdatedAt.Equal(first.CreatedAt) {
		t.Errorf("a new item was created at %v, updated at %v", first.CreatedAt, first.UpdatedAt)
	}
	putItem(t, mine, ns, "k", `{"diet":"vegan"}`)
	second, ok, _ := mine.Get(ctx, ns, "k", false)
	if !ok || !sameJSON(second.Value, []byte(`{"diet":"vegan"}`)) {
		t.Fatalf("the replaced item: %v %s", ok, second.Value)
	}
	if !second.CreatedAt.Equal(first.CreatedAt) {
		t.Errorf("a replaced item's creation time moved from %v to %v", first.CreatedAt, second.CreatedAt)
	}
	if !second.UpdatedAt.After(first.UpdatedAt.Add(999 * time.Microsecond)) {
		t.Errorf("updated_at went from %v to %v: want at least a millisecond later", first.UpdatedAt, second.UpdatedAt)
	}
	if _, ok, _ := mine.Get(ctx, []string{"prefs"}, "k", false); ok {
		t.Error("an item is read under a shorter namespace")
	}
	if err := mine.Delete(ctx, ns, "k"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := mine.Get(ctx, ns, "k", true); ok || err != nil {
		t.Errorf("after delete: found %v (%v)", ok, err)
	}
	if err := mine.Delete(ctx, ns, "k"); err != nil {
		t.Errorf("deleting a missing item: %v", err)
	}
}

// What the store does not keep, and searches and listings it cannot make,
// are BAD_REQUESTs.
func itemsRefusals(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t)).Items
	obj := json.RawMessage(`{}`)
	put := func(ns []string, key string, value string) func() error {
		return func() error {
			return mine.Put(ctx, items.PutItem{Namespace: ns, Key: key, Value: json.RawMessage(value)})
		}
	}
	search := func(q items.Query) func() error {
		return func() error { _, err := mine.Search(ctx, q); return err }
	}
	list := func(q items.NamespaceQuery) func() error {
		return func() error { _, err := mine.Namespaces(ctx, q); return err }
	}
	deep := slices.Repeat([]string{"a"}, items.MaxDepth+1)
	wide := map[string]json.RawMessage{}
	for i := range items.MaxFilterLen + 1 {
		wide[strings.Repeat("f", i+1)] = json.RawMessage(`1`)
	}
	for _, c := range []struct {
		name string
		do   func() error
	}{
		{"no namespace", put(nil, "k", `{}`)},
		{"an empty label", put([]string{"a", ""}, "k", `{}`)},
		{"a label with a period", put([]string{"a.b"}, "k", `{}`)},
		{"a namespace too deep", put(deep, "k", `{}`)},
		{"a label too long", put([]string{strings.Repeat("l", items.MaxLabelLen+1)}, "k", `{}`)},
		{"a namespace too long altogether", put(randomNamespace(items.MaxDepth), "k", `{}`)},
		{"NUL in a label", put([]string{"a\x00"}, "k", `{}`)},
		{"no key", put([]string{"a"}, "", `{}`)},
		{"a key too long", put([]string{"a"}, strings.Repeat("k", items.MaxKeyLen+1), `{}`)},
		{"NUL in a key", put([]string{"a"}, "k\x00", `{}`)},
		{"a key not UTF-8", put([]string{"a"}, "k\xff", `{}`)},
		{"an array value", put([]string{"a"}, "k", `[1]`)},
		{"a string value", put([]string{"a"}, "k", `"x"`)},
		{"a null value", put([]string{"a"}, "k", `null`)},
		{"a value not JSON", put([]string{"a"}, "k", `{`)},
		{"get with NUL in the key", func() error { _, _, err := mine.Get(ctx, []string{"a"}, "k\x00", false); return err }},
		{"get with NUL in a label", func() error { _, _, err := mine.Get(ctx, []string{"a\x00"}, "k", false); return err }},
		{"delete without a namespace", func() error { return mine.Delete(ctx, nil, "k") }},
		{"get each with no namespace", func() error { _, err := mine.GetEach(ctx, items.Ref{Key: "k"}); return err }},
		{"search over the page cap", search(items.Query{Limit: items.MaxPageSize + 1})},
		{"search with a negative limit", search(items.Query{Limit: -1})},
		{"search with a negative offset", search(items.Query{Offset: -1})},
		{"search under a label with a period", search(items.Query{Prefix: []string{"a.b"}})},
		{"a filter too wide", search(items.Query{Filter: wide})},
		{"a filter member not JSON", search(items.Query{Filter: map[string]json.RawMessage{"a": json.RawMessage(`{`)}})},
		{"namespaces with a negative depth", list(items.NamespaceQuery{MaxDepth: -1})},
		{"namespaces with an empty prefix label", list(items.NamespaceQuery{Prefix: []string{""}})},
		{"namespaces with a suffix label with a period", list(items.NamespaceQuery{Suffix: []string{"a.b"}})},
		{"namespaces over the page cap", list(items.NamespaceQuery{Limit: items.MaxPageSize + 1})},
	} {
		wantCode(t, c.name, c.do(), errcode.BadRequest)
	}
	if err := mine.Put(ctx, items.PutItem{Namespace: []string{"a"}, Key: "k", Value: obj}); err != nil {
		t.Errorf("a valid put after the refusals: %v", err)
	}
	if got, _ := mine.Search(ctx, items.Query{}); len(got) != 1 {
		t.Errorf("the refused puts stored %q", itemKeys(got))
	}
}

// Every user's items are apart: another user's items are neither read,
// found, listed, overwritten nor deleted.
func itemsOwnersApart(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	ns := []string{"profile"}
	putItem(t, mine.Items, ns, "me", `{"home":"São Paulo"}`)
	if _, ok, _ := theirs.Items.Get(ctx, ns, "me", true); ok {
		t.Error("another user reads my item")
	}
	if got, _ := theirs.Items.GetEach(ctx, items.Ref{Namespace: ns, Key: "me"}); len(got) != 0 {
		t.Errorf("another user reads %q with GetEach", itemKeys(got))
	}
	for _, q := range []items.Query{{}, {Prefix: ns}, {Text: "paulo"}} {
		if found, _ := theirs.Items.Search(ctx, q); len(found) != 0 {
			t.Errorf("another user's search %+v finds %q", q, itemKeys(found))
		}
	}
	for _, q := range []items.NamespaceQuery{{}, {Prefix: ns}} {
		if list, _ := theirs.Items.Namespaces(ctx, q); len(list) != 0 {
			t.Errorf("another user lists %q", list)
		}
	}
	putItem(t, theirs.Items, ns, "me", `{"home":"Recife"}`)
	if got, ok, _ := theirs.Items.Get(ctx, ns, "me", false); !ok || !sameJSON(got.Value, []byte(`{"home":"Recife"}`)) {
		t.Errorf("the other user's own item: %v %s", ok, got.Value)
	}
	if err := theirs.Items.Delete(ctx, ns, "me"); err != nil {
		t.Fatal(err)
	}
	it, ok, _ := mine.Items.Get(ctx, ns, "me", false)
	if !ok || !sameJSON(it.Value, []byte(`{"home":"São Paulo"}`)) {
		t.Errorf("my item after another user wrote and deleted their own: %v %s", ok, it.Value)
	}
}

// A search keeps the items under its prefix that meet its filter; with a
// text, those whose indexed strings have one of its words, or a word that
// begins with one, folded, best matches first; without, the most recently
// updated first. Only a search with a text scores what it finds.
func itemsSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t)).Items
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	putInTurn(t, mine,
		items.PutItem{Namespace: []string{"trips", "2026"}, Key: "lisbon",
			Value: raw(`{"city":"Lisboa","note":"Vegetarian restaurants in Alfama","nights":4,"tags":["beach"],"open":true}`)},
		items.PutItem{Namespace: []string{"trips", "2027"}, Key: "porto", Value: raw(`{"city":"Porto","note":"wine cellars","nights":2,"open":false}`)},
		items.PutItem{Namespace: []string{"notes"}, Key: "diet", Value: raw(`{"text":"one of us is vegetarian, vegetarians welcome"}`)},
		items.PutItem{Namespace: []string{"notes"}, Key: "hidden", Value: raw(`{"text":"vegetarian"}`), NoIndex: true},
		items.PutItem{Namespace: []string{"notes"}, Key: "titled", Value: raw(`{"title":"porto","body":"vegetarian"}`), Index: []string{"title"}},
	)
	filter := func(field, v string) map[string]json.RawMessage { return map[string]json.RawMessage{field: raw(v)} }
	for _, c := range []struct {
		name string
		q    items.Query
		want []string
	}{
		{"prefix", items.Query{Prefix: []string{"trips"}}, []string{"porto", "lisbon"}},
		{"deeper prefix", items.Query{Prefix: []string{"trips", "2026"}}, []string{"lisbon"}},
		{"a prefix is whole labels", items.Query{Prefix: []string{"trip"}}, []string{}},
		{"no prefix, newest first", items.Query{}, []string{"titled", "hidden", "diet", "porto", "lisbon"}},
		{"equal filter", items.Query{Prefix: []string{"trips"}, Filter: filter("city", `"Porto"`)}, []string{"porto"}},
		{"numbers equal by value", items.Query{Filter: filter("nights", `4.0`)}, []string{"lisbon"}},
		{"a boolean", items.Query{Filter: filter("open", `false`)}, []string{"porto"}},
		{"operator filter", items.Query{Filter: filter("nights", `{"$gt":3}`)}, []string{"lisbon"}},
		{"two operators", items.Query{Filter: filter("nights", `{"$gte":2,"$lt":4}`)}, []string{"porto"}},
		{"not equal", items.Query{Prefix: []string{"trips"}, Filter: filter("city", `{"$ne":"Porto"}`)}, []string{"lisbon"}},
		{"not equal skips items without the member", items.Query{Filter: filter("city", `{"$ne":"Lisboa"}`)}, []string{"porto"}},
		{"an array is matched whole", items.Query{Filter: filter("tags", `["beach"]`)}, []string{"lisbon"}},
		{"an object of no operators is matched whole", items.Query{Filter: filter("city", `{"$gt":1,"x":2}`)}, []string{}},
		{"two members", items.Query{Filter: map[string]json.RawMessage{"nights": raw(`{"$lte":4}`), "open": raw(`true`)}}, []string{"lisbon"}},
		{"kinds compare in jsonb's order", items.Query{Filter: filter("nights", `{"$gt":"9"}`)}, []string{"porto", "lisbon"}},
		{"text, folded, best first", items.Query{Text: "VEGETARIAN"}, []string{"diet", "lisbon"}},
		{"text by a word's start", items.Query{Text: "lisb"}, []string{"lisbon"}},
		{"not by a word's middle", items.Query{Text: "isbo"}, []string{}},
		{"text with accents", items.Query{Text: "Lisbôa"}, []string{"lisbon"}},
		{"text in the indexed field only", items.Query{Text: "porto"}, []string{"titled", "porto"}},
		{"more words found, first", items.Query{Text: "wine porto"}, []string{"porto", "titled"}},
		{"text within a prefix", items.Query{Prefix: []string{"trips"}, Text: "vegetarian"}, []string{"lisbon"}},
		{"text and a filter", items.Query{Text: "vegetarian", Filter: filter("nights", `4`)}, []string{"lisbon"}},
		{"text of no words", items.Query{Text: "!!"}, []string{}},
		{"page", items.Query{Limit: 2, Offset: 1}, []string{"hidden", "diet"}},
		{"a page past the end", items.Query{Offset: 5}, []string{}},
	} {
		got, err := mine.Search(ctx, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(itemKeys(got), c.want) {
			t.Errorf("%s: found %q, want %q", c.name, itemKeys(got), c.want)
		}
		for i, it := range got {
			if (it.Score != nil) != (c.q.Text != "") {
				t.Errorf("%s: %s has score %v", c.name, it.Key, it.Score)
			}
			if i > 0 && it.Score != nil && *it.Score > *got[i-1].Score {
				t.Errorf("%s: %s scores %v, above %s's %v before it", c.name, it.Key, *it.Score, got[i-1].Key, *got[i-1].Score)
			}
		}
	}
}

// A text's best matches come first: an item with more of its words, then
// one with a word more often; equal matches, the most recently updated
// first.
func itemsRanking(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t)).Items
	put := func(key, text string) items.PutItem {
		return items.PutItem{Namespace: []string{"bars"}, Key: key, Value: json.RawMessage(`{"note":"` + text + `"}`)}
	}
	putInTurn(t, mine, put("twice", "wine, more wine"), put("both", "wine cellars"), put("once", "a wine bar"), put("none", "a beer bar"))
	for _, c := range []struct {
		text string
		want []string
	}{
		{"wine", []string{"twice", "once", "both"}},
		{"wine cellar", []string{"both", "twice", "once"}},
		{"bar", []string{"none", "once"}},
	} {
		got, err := mine.Search(ctx, items.Query{Text: c.text})
		if err != nil || !slices.Equal(itemKeys(got), c.want) {
			t.Errorf("%q finds %q (%v), want %q", c.text, itemKeys(got), err, c.want)
		}
	}
}

// The longest namespace and key are kept, however little they compress
// (PostgreSQL's primary key holds them in one btree entry); so is a value
// whose indexed text is longer than a tsvector holds, which queries find
// by the words within MaxIndexedText bytes of it, not by those past it.
func itemsAtTheBounds(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t)).Items
	ns, key := randomNamespace(items.MaxNamespaceLen/items.MaxLabelLen), randomText(items.MaxKeyLen)
	putItem(t, mine, ns, key, `{"a":1}`)
	if _, ok, err := mine.Get(ctx, ns, key, false); !ok || err != nil {
		t.Errorf("the longest namespace and key: %v %v", ok, err)
	}
	var words strings.Builder
	words.WriteString("opening")
	for i := 0; words.Len() < 1<<20; i++ {
		fmt.Fprintf(&words, " w%x", i)
	}
	value := `{"text":"` + words.String() + ` closing"}`
	putItem(t, mine, []string{"big"}, "notes", value)
	if it, ok, err := mine.Get(ctx, []string{"big"}, "notes", false); !ok || err != nil || !sameJSON(it.Value, []byte(value)) {
		t.Errorf("the big item reads back: %v %v", ok, err)
	}
	for text, want := range map[string][]string{"opening": {"notes"}, "w100": {"notes"}, "closing": {}} {
		if got, err := mine.Search(ctx, items.Query{Prefix: []string{"big"}, Text: text}); err != nil || !slices.Equal(itemKeys(got), want) {
			t.Errorf("%q finds %q (%v), want %q", text, itemKeys(got), err, want)
		}
	}
}

// randomNamespace is n labels of MaxLabelLen random bytes each.
func randomNamespace(n int) []string {
	ns := make([]string, n)
	for i := range ns {
		ns[i] = randomText(items.MaxLabelLen)
	}
	return ns
}

// randomText is n bytes of random hex digits, which do not compress.
func randomText(n int) string {
	b := make([]byte, (n+1)/2)
	rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

// Namespaces lists each namespace that holds items once, in order, by
// prefix and suffix (a label "*" matching any), cut to a depth, paged.
func itemsNamespaces(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t)).Items
	for _, ns := range [][]string{{"a", "b", "c"}, {"a", "b", "d"}, {"a", "x"}, {"b", "c"}, {"a", "b", "c", "e"}} {
		putItem(t, mine, ns, "k", `{}`)
	}
	putItem(t, mine, []string{"a", "x"}, "second", `{}`)
	for _, c := range []struct {
		name string
		q    items.NamespaceQuery
		want [][]string
	}{
		{"all", items.NamespaceQuery{}, [][]string{{"a", "b", "c"}, {"a", "b", "c", "e"}, {"a", "b", "d"}, {"a", "x"}, {"b", "c"}}},
		{"prefix", items.NamespaceQuery{Prefix: []string{"a", "b"}}, [][]string{{"a", "b", "c"}, {"a", "b", "c", "e"}, {"a", "b", "d"}}},
		{"suffix", items.NamespaceQuery{Suffix: []string{"c"}}, [][]string{{"a", "b", "c"}, {"b", "c"}}},
		{"wildcard", items.NamespaceQuery{Prefix: []string{"*", "b"}}, [][]string{{"a", "b", "c"}, {"a", "b", "c", "e"}, {"a", "b", "d"}}},
		{"suffix with a wildcard", items.NamespaceQuery{Suffix: []string{"*", "c"}}, [][]string{{"a", "b", "c"}, {"b", "c"}}},
		{"prefix and suffix", items.NamespaceQuery{Prefix: []string{"a"}, Suffix: []string{"d"}}, [][]string{{"a", "b", "d"}}},
		{"a prefix longer than any", items.NamespaceQuery{Prefix: []string{"a", "b", "c", "e", "f"}}, [][]string{}},
		{"max depth", items.NamespaceQuery{MaxDepth: 2}, [][]string{{"a", "b"}, {"a", "x"}, {"b", "c"}}},
		{"prefix and depth", items.NamespaceQuery{Prefix: []string{"a"}, MaxDepth: 1}, [][]string{{"a"}}},
		{"a depth past any", items.NamespaceQuery{Prefix: []string{"a", "b"}, MaxDepth: math.MaxInt64}, [][]string{{"a", "b", "c"}, {"a", "b", "c", "e"}, {"a", "b", "d"}}},
		{"page", items.NamespaceQuery{Limit: 2, Offset: 3}, [][]string{{"a", "x"}, {"b", "c"}}},
	} {
		got, err := mine.Namespaces(ctx, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(got) != len(c.want) || !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if err := mine.Delete(ctx, []string{"b", "c"}, "k"); err != nil {
		t.Fatal(err)
	}
	if got, _ := mine.Namespaces(ctx, items.NamespaceQuery{Suffix: []string{"c"}}); len(got) != 1 {
		t.Errorf("a namespace whose last item was deleted is listed still: %q", got)
	}
}

// An item with a time to live is gone once it runs out, for every read,
// unless a read with a refresh (Get's, or a search's for what it finds)
// started it again; GetEach, Get without a refresh and a search without
// one do not. Put again once gone, it is a new item.
func itemsTTL(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t)).Items
	const ttl = 1500 * time.Millisecond // the API takes minutes: 0.025
	for _, k := range []string{"read", "unread", "found"} {
		ns := []string{"t", k}
		if err := mine.Put(ctx, items.PutItem{Namespace: ns, Key: k, Value: json.RawMessage(`{"w":"word"}`), TTL: ttl}); err != nil {
			t.Fatal(err)
		}
	}
	putItem(t, mine, []string{"t", "forever"}, "forever", `{"w":"word"}`)
	unread, _, _ := mine.Get(ctx, []string{"t", "unread"}, "unread", false)
	time.Sleep(time.Second)

	// Refreshed: read with Get, found by a search. Read without: unread.
	if _, ok, err := mine.Get(ctx, []string{"t", "read"}, "read", true); !ok || err != nil {
		t.Fatalf("get: %v %v", ok, err)
	}
	if got, err := mine.Search(ctx, items.Query{Prefix: []string{"t", "found"}, Text: "word", Refresh: true}); err != nil || len(got) != 1 {
		t.Fatalf("a refreshing search: %q %v", itemKeys(got), err)
	}
	if _, ok, _ := mine.Get(ctx, []string{"t", "unread"}, "unread", false); !ok {
		t.Fatal("an item is gone before its time ran out")
	}
	mine.GetEach(ctx, items.Ref{Namespace: []string{"t", "unread"}, Key: "unread"})
	mine.Search(ctx, items.Query{Prefix: []string{"t", "unread"}})
	time.Sleep(750 * time.Millisecond)

	if _, ok, _ := mine.Get(ctx, []string{"t", "unread"}, "unread", true); ok {
		t.Error("an expired item is still read")
	}
	if got, _ := mine.GetEach(ctx, items.Ref{Namespace: []string{"t", "unread"}, Key: "unread"}); len(got) != 0 {
		t.Error("an expired item is still read with GetEach")
	}
	got, err := mine.Search(ctx, items.Query{Prefix: []string{"t"}})
	if err != nil {
		t.Fatal(err)
	}
	if keys := itemKeys(got); len(keys) != 3 || slices.Contains(keys, "unread") {
		t.Errorf("the search finds %q, want read, found and forever", keys)
	}
	if got, _ := mine.Search(ctx, items.Query{Text: "word"}); len(got) != 3 {
		t.Errorf("the text search finds %q, want read, found and forever", itemKeys(got))
	}
	if list, _ := mine.Namespaces(ctx, items.NamespaceQuery{}); len(list) != 3 || slices.ContainsFunc(list, func(ns []string) bool { return ns[1] == "unread" }) {
		t.Errorf("namespaces %q list an expired item's", list)
	}
	if err := mine.Put(ctx, items.PutItem{Namespace: []string{"t", "unread"}, Key: "unread", Value: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	again, ok, _ := mine.Get(ctx, []string{"t", "unread"}, "unread", false)
	if !ok || !again.CreatedAt.After(unread.CreatedAt) {
		t.Errorf("an expired item put again was created at %v, the first at %v: want a new item", again.CreatedAt, unread.CreatedAt)
	}
}

// GetEach reads the named items of their owner: those that exist,
// whatever their namespaces, and nothing of another owner's.
func itemsGetEach(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	putItem(t, mine.Items, []string{"a", "b"}, "one", `{"n":1}`)
	putItem(t, mine.Items, []string{"c"}, "two", `{"n":2}`)
	putItem(t, theirs.Items, []string{"c"}, "three", `{"n":3}`)
	list, err := mine.Items.GetEach(ctx, items.Ref{Namespace: []string{"a", "b"}, Key: "one"}, items.Ref{Namespace: []string{"c"}, Key: "two"},
		items.Ref{Namespace: []string{"c"}, Key: "three"}, items.Ref{Namespace: []string{"a"}, Key: "one"}, items.Ref{Namespace: []string{"c"}, Key: "two"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range list {
		var v struct{ N int }
		json.Unmarshal(it.Value, &v)
		got = append(got, strings.Join(it.Namespace, ".")+"/"+it.Key+"="+string(rune('0'+v.N)))
	}
	slices.Sort(got)
	if want := []string{"a.b/one=1", "c/two=2"}; !slices.Equal(got, want) {
		t.Errorf("GetEach read %q, want %q", got, want)
	}
	if list, err := mine.Items.GetEach(ctx); err != nil || len(list) != 0 {
		t.Errorf("GetEach of nothing: %v %v", list, err)
	}
}
