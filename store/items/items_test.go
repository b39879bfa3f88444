package items

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

// The behaviour the in-memory twin shares is tested by the tenants' suite
// (server/tenant/tenanttest), on PostgreSQL too. Here is what is this
// store's own: expiry moved in the table, the sweep, deleting a
// namespace.

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "items", &testURL)) }

// open is the store on the package's migrated database, with a new user
// of the given name.
func open(t *testing.T, names ...string) (*Store, *pgxpool.Pool, []Owned) {
	t.Helper()
	pool := pgtest.MigratedPool(t, testURL, migrations.Up)
	acc := accounts.New(pool)
	s := New(pool, nil, quota.Limits{})
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

// The indexed text is cut after its last whole word within the bound, or
// between two characters of a word longer than the bound.
func TestBounded(t *testing.T) {
	word := strings.Repeat("a", MaxIndexedText-1)
	for _, c := range []struct{ name, text, want string }{
		{"short", "lisbon porto", "lisbon porto"},
		{"at the bound", word + "b", word + "b"},
		{"a space just past the bound", word + "b c", word + "b"},
		{"a word across the bound", word + " bc", word},
		{"one long word", word + "bé", word + "b"},
		{"a character across the bound", word + "é", word},
	} {
		if got := bounded(c.text); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, len(got), len(c.want))
		}
	}
}

// Puts racing for the last room of a user's store: the user's store is
// locked (quota.LockUserItems) before their items are counted, so exactly the limit's items go
// in, whichever connections the puts take, and the others are refused.
func TestConcurrentPutsStopAtTheLimit(t *testing.T) {
	ctx := context.Background()
	_, pool, o := open(t, "items-race")
	limited := New(pool, nil, quota.Limits{Items: 5}).ForOwner(o[0].userID)
	errs := make(chan error, 20)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			errs <- limited.Put(ctx, PutItem{Namespace: []string{"race"}, Key: fmt.Sprint(i), Value: json.RawMessage(`{}`)})
		})
	}
	wg.Wait()
	close(errs)
	stored := 0
	for err := range errs {
		switch {
		case err == nil:
			stored++
		case errcode.Of(err) != errcode.LimitExceeded:
			t.Errorf("a put: %v", err)
		}
	}
	if stored != 5 {
		t.Errorf("%d puts went in, want the limit's 5", stored)
	}
}
