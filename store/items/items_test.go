package items

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "items", &testURL)) }

// open is the store on the package's migrated database, with a new user
// of the given name.
func open(t *testing.T, names ...string) (*Store, *pgxpool.Pool, []Owned) {
	t.Helper()
	pool := pgtest.MigratedPool(t, testURL, migrations.Up)
	acc := accounts.New(pool)
	s := New(pool)
	var owned []Owned
	for _, n := range names {
		u, err := acc.EnsureUser(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		owned = append(owned, s.ForOwner(u.ID))
	}
	return s, pool, owned
}

func put(t *testing.T, o Owned, ns []string, key, value string) {
	t.Helper()
	if err := o.Put(context.Background(), PutItem{Namespace: ns, Key: key, Value: json.RawMessage(value)}); err != nil {
		t.Fatal(err)
	}
}

func keys(list []Item) []string {
	out := []string{}
	for _, it := range list {
		out = append(out, it.Key)
	}
	return out
}

func TestPutGetDelete(t *testing.T) {
	ctx := context.Background()
	_, _, o := open(t, "items-put")
	ana := o[0]
	ns := []string{"prefs", "food"}
	put(t, ana, ns, "k", `{"diet":"vegetarian"}`)
	first, ok, err := ana.Get(ctx, ns, "k", true)
	if err != nil || !ok {
		t.Fatalf("get after put: %v %v", ok, err)
	}
	if string(first.Value) != `{"diet": "vegetarian"}` || !slices.Equal(first.Namespace, ns) || first.Key != "k" {
		t.Errorf("got %+v", first)
	}
	put(t, ana, ns, "k", `{"diet":"vegan"}`)
	second, _, _ := ana.Get(ctx, ns, "k", false)
	if !second.CreatedAt.Equal(first.CreatedAt) {
		t.Errorf("a replaced item's creation time moved from %v to %v", first.CreatedAt, second.CreatedAt)
	}
	if !second.UpdatedAt.After(first.UpdatedAt.Add(999 * time.Microsecond)) {
		t.Errorf("updated_at went from %v to %v: want at least a millisecond later", first.UpdatedAt, second.UpdatedAt)
	}
	if err := ana.Delete(ctx, ns, "k"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := ana.Get(ctx, ns, "k", true); ok || err != nil {
		t.Errorf("after delete: found %v (%v)", ok, err)
	}
	if err := ana.Delete(ctx, ns, "k"); err != nil {
		t.Errorf("deleting a missing item: %v", err)
	}
}

func TestRefusals(t *testing.T) {
	ctx := context.Background()
	_, _, o := open(t, "items-refuse")
	for _, c := range []struct {
		name string
		in   PutItem
	}{
		{"no namespace", PutItem{Key: "k", Value: json.RawMessage(`{}`)}},
		{"empty label", PutItem{Namespace: []string{"a", ""}, Key: "k", Value: json.RawMessage(`{}`)}},
		{"label with a period", PutItem{Namespace: []string{"a.b"}, Key: "k", Value: json.RawMessage(`{}`)}},
		{"no key", PutItem{Namespace: []string{"a"}, Value: json.RawMessage(`{}`)}},
		{"array value", PutItem{Namespace: []string{"a"}, Key: "k", Value: json.RawMessage(`[1]`)}},
		{"string value", PutItem{Namespace: []string{"a"}, Key: "k", Value: json.RawMessage(`"x"`)}},
		{"NUL in a key", PutItem{Namespace: []string{"a"}, Key: "k\x00", Value: json.RawMessage(`{}`)}},
		{"NUL in a label", PutItem{Namespace: []string{"a\x00"}, Key: "k", Value: json.RawMessage(`{}`)}},
		{"a key not UTF-8", PutItem{Namespace: []string{"a"}, Key: "k\xff", Value: json.RawMessage(`{}`)}},
	} {
		if err := o[0].Put(ctx, c.in); errcode.Of(err) != errcode.BadRequest {
			t.Errorf("%s: %v, want BAD_REQUEST", c.name, err)
		}
	}
	// A query string reaches Get and Delete unchecked.
	if _, _, err := o[0].Get(ctx, []string{"a"}, "k\x00", false); errcode.Of(err) != errcode.BadRequest {
		t.Errorf("get with NUL in the key: %v, want BAD_REQUEST", err)
	}
	if _, _, err := o[0].Get(ctx, []string{"a\x00"}, "k", false); errcode.Of(err) != errcode.BadRequest {
		t.Errorf("get with NUL in a label: %v, want BAD_REQUEST", err)
	}
}

// Every user's items are apart: another user's items are neither read,
// found, listed, overwritten nor deleted.
func TestOwnersApart(t *testing.T) {
	ctx := context.Background()
	_, _, o := open(t, "items-ana", "items-bob")
	ana, bob := o[0], o[1]
	ns := []string{"profile"}
	put(t, ana, ns, "me", `{"home":"São Paulo"}`)
	if _, ok, _ := bob.Get(ctx, ns, "me", true); ok {
		t.Error("bob reads ana's item")
	}
	if found, _ := bob.Search(ctx, Query{Prefix: ns, Text: "paulo"}); len(found) != 0 {
		t.Errorf("bob finds %v", keys(found))
	}
	if list, _ := bob.Namespaces(ctx, NamespaceQuery{}); len(list) != 0 {
		t.Errorf("bob lists %v", list)
	}
	put(t, bob, ns, "me", `{"home":"Recife"}`)
	if err := bob.Delete(ctx, ns, "me"); err != nil {
		t.Fatal(err)
	}
	it, ok, _ := ana.Get(ctx, ns, "me", false)
	if !ok || string(it.Value) != `{"home": "São Paulo"}` {
		t.Errorf("ana's item after bob wrote and deleted his own: %v %s", ok, it.Value)
	}
}

func TestSearch(t *testing.T) {
	ctx := context.Background()
	_, _, o := open(t, "items-search")
	ana := o[0]
	put(t, ana, []string{"trips", "2026"}, "lisbon", `{"city":"Lisboa","note":"Vegetarian restaurants in Alfama","nights":4,"tags":["beach"]}`)
	put(t, ana, []string{"trips", "2027"}, "porto", `{"city":"Porto","note":"wine cellars","nights":2}`)
	put(t, ana, []string{"notes"}, "diet", `{"text":"one of us is vegetarian, vegetarians welcome"}`)
	if err := ana.Put(ctx, PutItem{Namespace: []string{"notes"}, Key: "hidden", Value: json.RawMessage(`{"text":"vegetarian"}`), NoIndex: true}); err != nil {
		t.Fatal(err)
	}
	if err := ana.Put(ctx, PutItem{Namespace: []string{"notes"}, Key: "titled", Value: json.RawMessage(`{"title":"porto","body":"vegetarian"}`), Index: []string{"title"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		q    Query
		want []string
	}{
		{"prefix", Query{Prefix: []string{"trips"}}, []string{"porto", "lisbon"}},
		{"deeper prefix", Query{Prefix: []string{"trips", "2026"}}, []string{"lisbon"}},
		{"no prefix, newest first", Query{}, []string{"titled", "hidden", "diet", "porto", "lisbon"}},
		{"equal filter", Query{Prefix: []string{"trips"}, Filter: map[string]json.RawMessage{"city": json.RawMessage(`"Porto"`)}}, []string{"porto"}},
		{"operator filter", Query{Filter: map[string]json.RawMessage{"nights": json.RawMessage(`{"$gt":3}`)}}, []string{"lisbon"}},
		{"two operators", Query{Filter: map[string]json.RawMessage{"nights": json.RawMessage(`{"$gte":2,"$lt":4}`)}}, []string{"porto"}},
		{"not equal", Query{Prefix: []string{"trips"}, Filter: map[string]json.RawMessage{"city": json.RawMessage(`{"$ne":"Porto"}`)}}, []string{"lisbon"}},
		{"array filter is equality", Query{Filter: map[string]json.RawMessage{"tags": json.RawMessage(`["beach"]`)}}, []string{"lisbon"}},
		{"text, folded, best first", Query{Text: "VEGETARIAN"}, []string{"diet", "lisbon"}},
		{"text by a word's start", Query{Text: "lisb"}, []string{"lisbon"}},
		{"text with accents", Query{Text: "Lisbôa"}, []string{"lisbon"}},
		{"text in the indexed field only", Query{Text: "porto"}, []string{"titled", "porto"}},
		{"text within a prefix", Query{Prefix: []string{"trips"}, Text: "vegetarian"}, []string{"lisbon"}},
		{"text of no words", Query{Text: "!!"}, []string{}},
		{"page", Query{Limit: 2, Offset: 1}, []string{"hidden", "diet"}},
	} {
		got, err := ana.Search(ctx, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(keys(got), c.want) {
			t.Errorf("%s: found %q, want %q", c.name, keys(got), c.want)
		}
		for _, it := range got {
			if (it.Score != nil) != (c.q.Text != "") {
				t.Errorf("%s: %s has score %v", c.name, it.Key, it.Score)
			}
		}
	}
	if _, err := ana.Search(ctx, Query{Limit: MaxPageSize + 1}); errcode.Of(err) != errcode.BadRequest {
		t.Errorf("a page over the cap: %v", err)
	}
}

func TestNamespaces(t *testing.T) {
	ctx := context.Background()
	_, _, o := open(t, "items-ns")
	ana := o[0]
	for _, ns := range [][]string{{"a", "b", "c"}, {"a", "b", "d"}, {"a", "x"}, {"b", "c"}, {"a", "b", "c", "e"}} {
		put(t, ana, ns, "k", `{}`)
	}
	for _, c := range []struct {
		name string
		q    NamespaceQuery
		want [][]string
	}{
		{"all", NamespaceQuery{}, [][]string{{"a", "b", "c"}, {"a", "b", "c", "e"}, {"a", "b", "d"}, {"a", "x"}, {"b", "c"}}},
		{"prefix", NamespaceQuery{Prefix: []string{"a", "b"}}, [][]string{{"a", "b", "c"}, {"a", "b", "c", "e"}, {"a", "b", "d"}}},
		{"suffix", NamespaceQuery{Suffix: []string{"c"}}, [][]string{{"a", "b", "c"}, {"b", "c"}}},
		{"wildcard", NamespaceQuery{Prefix: []string{"*", "b"}}, [][]string{{"a", "b", "c"}, {"a", "b", "c", "e"}, {"a", "b", "d"}}},
		{"max depth", NamespaceQuery{MaxDepth: 2}, [][]string{{"a", "b"}, {"a", "x"}, {"b", "c"}}},
		{"prefix and depth", NamespaceQuery{Prefix: []string{"a"}, MaxDepth: 1}, [][]string{{"a"}}},
		{"page", NamespaceQuery{Limit: 2, Offset: 3}, [][]string{{"a", "x"}, {"b", "c"}}},
	} {
		got, err := ana.Namespaces(ctx, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// An item with a time to live is gone once it runs out, unless a read
// refreshed it; the sweep deletes expired ones.
func TestTTL(t *testing.T) {
	ctx := context.Background()
	s, pool, o := open(t, "items-ttl")
	ana := o[0]
	for _, k := range []string{"read", "unread", "found"} {
		if err := ana.Put(ctx, PutItem{Namespace: []string{"t"}, Key: k, Value: json.RawMessage(`{"w":"word"}`), TTL: time.Hour}); err != nil {
			t.Fatal(err)
		}
	}
	put(t, ana, []string{"t"}, "forever", `{}`)
	// Bring every expiry to a second from now, then read two with a refresh.
	if _, err := pool.Exec(ctx, `UPDATE store_items SET expires_at = now() + interval '1 second' WHERE ttl IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := ana.Get(ctx, []string{"t"}, "read", true); !ok || err != nil {
		t.Fatalf("get: %v %v", ok, err)
	}
	if _, err := ana.Search(ctx, Query{Prefix: []string{"t"}, Text: "word", Limit: 1, Refresh: true}); err != nil {
		t.Fatal(err)
	}
	var refreshed []string
	rows, _ := pool.Query(ctx, `SELECT key FROM store_items WHERE expires_at > now() + interval '50 minutes' ORDER BY key`)
	for rows.Next() {
		var k string
		rows.Scan(&k)
		refreshed = append(refreshed, k)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"found", "read"}; !slices.Equal(refreshed, want) {
		t.Errorf("refreshed %q, want %q", refreshed, want)
	}
	// Let the unrefreshed one run out.
	if _, err := pool.Exec(ctx, `UPDATE store_items SET expires_at = now() - interval '1 second' WHERE key = 'unread'`); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := ana.Get(ctx, []string{"t"}, "unread", true); ok {
		t.Error("an expired item is still read")
	}
	if got, _ := ana.Search(ctx, Query{Prefix: []string{"t"}}); slices.Contains(keys(got), "unread") {
		t.Error("an expired item is still found")
	}
	if n, err := s.PruneExpired(ctx, true); err != nil || n != 1 {
		t.Errorf("a dry run counts %d (%v), want 1", n, err)
	}
	n, err := s.PruneExpired(ctx, false)
	if err != nil || n != 1 {
		t.Errorf("pruned %d (%v), want 1", n, err)
	}
	if got, _ := ana.Search(ctx, Query{Prefix: []string{"t"}}); len(got) != 3 {
		t.Errorf("after the prune %q are left, want 3", keys(got))
	}
}

func TestDeleteNamespace(t *testing.T) {
	ctx := context.Background()
	_, _, o := open(t, "items-delns")
	ana := o[0]
	put(t, ana, []string{"p", "a"}, "1", `{}`)
	put(t, ana, []string{"p"}, "2", `{}`)
	put(t, ana, []string{"q"}, "3", `{}`)
	n, err := ana.DeleteNamespace(ctx, []string{"p"})
	if err != nil || n != 2 {
		t.Fatalf("deleted %d (%v), want 2", n, err)
	}
	if got, _ := ana.Search(ctx, Query{}); !slices.Equal(keys(got), []string{"3"}) {
		t.Errorf("left %q", keys(got))
	}
}

// GetEach reads the named items of its owner in one statement: those that
// exist, whatever their namespaces, and nothing of another owner's.
func TestGetEach(t *testing.T) {
	ctx := context.Background()
	_, _, o := open(t, "items-each-a", "items-each-b")
	ana, bo := o[0], o[1]
	put(t, ana, []string{"a", "b"}, "one", `{"n":1}`)
	put(t, ana, []string{"c"}, "two", `{"n":2}`)
	put(t, bo, []string{"c"}, "three", `{"n":3}`)
	list, err := ana.GetEach(ctx, Ref{[]string{"a", "b"}, "one"}, Ref{[]string{"c"}, "two"},
		Ref{[]string{"c"}, "three"}, Ref{[]string{"a"}, "one"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range list {
		got = append(got, strings.Join(it.Namespace, ".")+"/"+it.Key+"="+string(it.Value))
	}
	slices.Sort(got)
	if want := []string{`a.b/one={"n": 1}`, `c/two={"n": 2}`}; !slices.Equal(got, want) {
		t.Errorf("GetEach read %q, want %q", got, want)
	}
	if _, err := ana.GetEach(ctx, Ref{nil, "one"}); err == nil {
		t.Error("GetEach took an empty namespace")
	}
}
