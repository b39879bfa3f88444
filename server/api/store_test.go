package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// The store routes as LangGraph's clients call them: put, get (null when
// missing), search, namespaces and delete.
func TestStoreRoutes(t *testing.T) {
	h := apptest.New(t)
	key := h.AliceKey
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", key,
		`{"namespace":["profile","food"],"key":"diet","value":{"diet":"vegetarian","who":"Maria"},"index":null,"ttl":null}`)
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", key,
		`{"namespace":["profile","home"],"key":"city","value":{"city":"São Paulo"},"index":["city"],"ttl":60}`)

	var it wire.StoreItem
	h.Must(http.StatusOK, http.MethodGet, "/store/items?namespace=profile.food&key=diet", key, "").Decode(t, &it)
	if it.Key != "diet" || !slices.Equal(it.Namespace, []string{"profile", "food"}) || !strings.Contains(string(it.Value), "vegetarian") ||
		it.CreatedAt.IsZero() || it.UpdatedAt.IsZero() || it.Score != nil {
		t.Fatalf("get: %+v", it)
	}
	if r := h.Must(http.StatusOK, http.MethodGet, "/store/items?namespace=profile.food&key=nothing", key, ""); strings.TrimSpace(string(r.Body)) != "null" {
		t.Errorf("a missing item answers %s, want null", r.Body)
	}

	var found wire.StoreSearchResult
	h.Must(http.StatusOK, http.MethodPost, "/store/items/search", key, `{"namespace_prefix":["profile"],"query":"paulo","limit":10,"offset":0}`).Decode(t, &found)
	if len(found.Items) != 1 || found.Items[0].Key != "city" || found.Items[0].Score == nil {
		t.Fatalf("search: %+v", found)
	}
	h.Must(http.StatusOK, http.MethodPost, "/store/items/search", key, `{"namespace_prefix":["profile"],"filter":{"diet":"vegetarian"}}`).Decode(t, &found)
	if len(found.Items) != 1 || found.Items[0].Key != "diet" {
		t.Fatalf("filter: %+v", found)
	}

	var ns wire.StoreNamespaceList
	h.Must(http.StatusOK, http.MethodPost, "/store/namespaces", key, `{"prefix":["profile"],"max_depth":2,"limit":100,"offset":0}`).Decode(t, &ns)
	if len(ns.Namespaces) != 2 || !slices.Equal(ns.Namespaces[0], []string{"profile", "food"}) {
		t.Fatalf("namespaces: %v", ns.Namespaces)
	}

	before := it.UpdatedAt
	time.Sleep(2 * time.Millisecond)
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", key, `{"namespace":["profile","food"],"key":"diet","value":{"diet":"vegan"}}`)
	h.Must(http.StatusOK, http.MethodGet, "/store/items?namespace=profile.food&key=diet", key, "").Decode(t, &it)
	if !it.UpdatedAt.After(before) || !strings.Contains(string(it.Value), "vegan") {
		t.Errorf("after a second put: %+v", it)
	}

	h.Must(http.StatusNoContent, http.MethodDelete, "/store/items", key, `{"namespace":["profile","food"],"key":"diet"}`)
	if r := h.Must(http.StatusOK, http.MethodGet, "/store/items?namespace=profile.food&key=diet", key, ""); strings.TrimSpace(string(r.Body)) != "null" {
		t.Errorf("a deleted item answers %s", r.Body)
	}

	for _, c := range []struct {
		name, method, path, body string
		want                     int
	}{
		{"array value", http.MethodPut, "/store/items", `{"namespace":["a"],"key":"k","value":[1]}`, http.StatusUnprocessableEntity},
		{"no namespace", http.MethodPut, "/store/items", `{"namespace":[],"key":"k","value":{}}`, http.StatusBadRequest},
		{"label with a period", http.MethodPut, "/store/items", `{"namespace":["a.b"],"key":"k","value":{}}`, http.StatusBadRequest},
		{"bad index", http.MethodPut, "/store/items", `{"namespace":["a"],"key":"k","value":{},"index":"all"}`, http.StatusUnprocessableEntity},
		{"negative ttl", http.MethodPut, "/store/items", `{"namespace":["a"],"key":"k","value":{},"ttl":-1}`, http.StatusUnprocessableEntity},
		{"ttl past 100 years", http.MethodPut, "/store/items", `{"namespace":["a"],"key":"k","value":{},"ttl":1e12}`, http.StatusUnprocessableEntity},
		{"a number past a float", http.MethodPut, "/store/items", `{"namespace":["a"],"key":"k","value":{"n":1e400}}`, http.StatusBadRequest},
		{"unknown member", http.MethodPost, "/store/items/search", `{"namespace":["a"]}`, http.StatusUnprocessableEntity},
		{"limit over the cap", http.MethodPost, "/store/items/search", `{"limit":5000}`, http.StatusBadRequest},
		{"get without a key", http.MethodGet, "/store/items?namespace=a", "", http.StatusBadRequest},
		{"max depth 0", http.MethodPost, "/store/namespaces", `{"max_depth":0}`, http.StatusUnprocessableEntity},
	} {
		if r := h.Do(c.method, c.path, key, c.body); r.Status != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.want)
		}
	}
}

// Every store route acts on the key's user's items only: another user
// neither reads, finds, lists, overwrites nor deletes them.
func TestStoreRoutesKeepUsersApart(t *testing.T) {
	h := apptest.New(t)
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.AliceKey, `{"namespace":["private"],"key":"k","value":{"secret":"alice's"}}`)
	// Bob's calls on the same namespace and key.
	if r := h.Must(http.StatusOK, http.MethodGet, "/store/items?namespace=private&key=k", h.BobKey, ""); strings.TrimSpace(string(r.Body)) != "null" {
		t.Errorf("bob reads %s", r.Body)
	}
	var found wire.StoreSearchResult
	h.Must(http.StatusOK, http.MethodPost, "/store/items/search", h.BobKey, `{"namespace_prefix":["private"],"query":"alice"}`).Decode(t, &found)
	if len(found.Items) != 0 {
		t.Errorf("bob finds %+v", found.Items)
	}
	h.Must(http.StatusOK, http.MethodPost, "/store/items/search", h.BobKey, `{}`).Decode(t, &found)
	if len(found.Items) != 0 {
		t.Errorf("bob finds %+v with no filter", found.Items)
	}
	var ns wire.StoreNamespaceList
	h.Must(http.StatusOK, http.MethodPost, "/store/namespaces", h.BobKey, `{}`).Decode(t, &ns)
	if len(ns.Namespaces) != 0 {
		t.Errorf("bob lists %v", ns.Namespaces)
	}
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.BobKey, `{"namespace":["private"],"key":"k","value":{"secret":"bob's"}}`)
	h.Must(http.StatusNoContent, http.MethodDelete, "/store/items", h.BobKey, `{"namespace":["private"],"key":"k"}`)

	var it wire.StoreItem
	h.Must(http.StatusOK, http.MethodGet, "/store/items?namespace=private&key=k", h.AliceKey, "").Decode(t, &it)
	if !strings.Contains(string(it.Value), "alice's") {
		t.Errorf("alice's item after bob's put and delete: %s", it.Value)
	}
}

// The planner's own items (its namespace, tripgraph) take only what the
// planner would write there: a profile of its shape and within its
// bounds, a consent that is true or false, no other item. What is taken
// is what the planner reads back; another namespace takes any object.
func TestStorePlannerNamespace(t *testing.T) {
	h := apptest.New(t)
	put := func(ns, key, value string) apptest.Response {
		return h.Do(http.MethodPut, "/store/items", h.AliceKey, `{"namespace":`+ns+`,"key":"`+key+`","value":`+value+`}`)
	}
	profile, consent := `["tripgraph","profile"]`, `["tripgraph","settings"]`
	for _, c := range []struct{ name, ns, key, value string }{
		{"a home city that is not text", profile, "traveller", `{"homeCity":5}`},
		{"a member the profile has not", profile, "traveller", `{"homeCity":"Braga","shoeSize":42}`},
		{"a party too large", profile, "traveller", `{"partySize":99}`},
		{"a negative party", profile, "traveller", `{"partySize":-1}`},
		{"a party that is not whole", profile, "traveller", `{"partySize":2.5}`},
		{"a child's age past 17", profile, "traveller", `{"childrenAges":[4,30]}`},
		{"a currency that is not a code", profile, "traveller", `{"currency":"euros"}`},
		{"a budget of nothing", profile, "traveller", `{"budget":{"amount":0}}`},
		{"a budget past the bound", profile, "traveller", `{"budget":{"amount":1e300}}`},
		{"a budget that is not an object", profile, "traveller", `{"budget":"cheap"}`},
		{"a language tripgraph does not speak", profile, "traveller", `{"language":"xx"}`},
		{"too many diets", profile, "traveller", `{"diet":["a","b","c","d","e","f","g","h","i","j","k"]}`},
		{"a home city too long", profile, "traveller", `{"homeCity":"` + strings.Repeat("a", 201) + `"}`},
		{"a consent that is not a boolean", consent, "memory", `{"remember":"yes"}`},
		{"a consent with more", consent, "memory", `{"remember":true,"until":"2030"}`},
		{"another item in the planner's namespace", profile, "someone", `{"homeCity":"Braga"}`},
		{"another namespace of the planner's", `["tripgraph","notes"]`, "k", `{}`},
	} {
		if r := put(c.ns, c.key, c.value); r.Status != http.StatusBadRequest || r.ErrorCode(t) != "BAD_REQUEST" {
			t.Errorf("%s: %d %s, want 400", c.name, r.Status, r.Body)
		}
	}
	if p, err := h.Tenant(h.Alice.ID).Memory.Profile(context.Background()); err != nil || !p.Empty() {
		t.Fatalf("the refused writes left a profile: %+v %v", p, err)
	}

	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.AliceKey,
		`{"namespace":["tripgraph","profile"],"key":"traveller","value":{"homeCity":"Braga","partySize":2,"budget":{"amount":120.5,"currency":"EUR"}}}`)
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.AliceKey, `{"namespace":["tripgraph","settings"],"key":"memory","value":{"remember":true}}`)
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.AliceKey, `{"namespace":["tripgraphs"],"key":"k","value":{"any":"thing"}}`)
	m := h.Tenant(h.Alice.ID).Memory
	p, err := m.Recall(context.Background())
	if err != nil || p.HomeCity != "Braga" || p.PartySize != 2 || p.Budget == nil || p.Budget.Amount != 120.5 {
		t.Fatalf("the planner recalls %+v (%v)", p, err)
	}
	h.Must(http.StatusNoContent, http.MethodDelete, "/store/items", h.AliceKey, `{"namespace":["tripgraph","profile"],"key":"traveller"}`)
	if p, _ := m.Profile(context.Background()); !p.Empty() {
		t.Errorf("a deleted profile is remembered: %+v", p)
	}
}
