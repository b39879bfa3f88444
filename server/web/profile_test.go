package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// remembered is what the planner remembers of a user, and whether they
// agreed to it.
func remembered(h *apptest.Server, userID string) (nodes.Profile, bool) {
	h.T().Helper()
	m := h.Tenant(userID).Memory
	consent, err := m.Consent(context.Background())
	if err != nil {
		h.T().Fatal(err)
	}
	p, err := m.Profile(context.Background())
	if err != nil {
		h.T().Fatal(err)
	}
	return p, consent
}

// mustRemember fails the test unless the user's profile and consent are
// these.
func mustRemember(h *apptest.Server, userID string, want nodes.Profile, consent bool) {
	h.T().Helper()
	if got, gave := remembered(h, userID); !reflect.DeepEqual(got, want) || gave != consent {
		h.T().Fatalf("remembered %+v with consent %v, want %+v with %v", got, gave, want, consent)
	}
}

// profileForm is the profile form as a traveller fills it in.
func profileForm() url.Values {
	return url.Values{"remember": {"true"}, "home_city": {" São Paulo "}, "home_country": {"Brazil"}, "currency": {"brl"},
		"party_size": {"4"}, "children_ages": {"5, 8"}, "diet": {"Vegetarian; vegan"}, "budget": {"2500"},
		"budget_currency": {"usd"}, "language": {"pt"}}
}

// The profile page shows what the planner remembers, saves what the
// traveller corrects with their consent, and forgets it when asked or
// when the consent is withdrawn; another user's is theirs.
func TestProfilePage(t *testing.T) {
	h := apptest.New(t)
	b := newBrowser(h).login(h.AliceKey)
	hasAll(t, b.get("/app").Body, `href="/app/profile"`)
	page := b.get("/app/profile")
	mustStatus(t, page, http.StatusOK)
	hasAll(t, page.Body, `<form class="profile" method="post" action="/app/profile"`, `class="hint profile-empty"`,
		`<form class="forget" method="post" action="/app/profile/forget"`, `name="csrf_token" value="`+b.csrf+`"`)
	lacks(t, page.Body, "checked", `role="status"`)

	mustStatus(t, b.post("/app/profile", profileForm()), http.StatusForbidden)
	mustRemember(h, h.Alice.ID, nodes.Profile{}, false)
	r := b.submit("/app/profile", profileForm())
	mustStatus(t, r, http.StatusSeeOther)
	if loc := r.Header.Get("Location"); loc != "/app/profile?saved=1" {
		t.Fatalf("Location %q", loc)
	}
	want := nodes.Profile{HomeCity: "São Paulo", HomeCountry: "Brazil", Currency: "BRL", PartySize: 4, ChildrenAges: []int{5, 8},
		Diet: []string{"vegetarian", "vegan"}, Budget: &nodes.Budget{Amount: 2500, Currency: "USD"}, Language: "pt"}
	mustRemember(h, h.Alice.ID, want, true)
	page = b.get("/app/profile?saved=1")
	hasAll(t, page.Body, `role="status"`, `name="remember" type="checkbox" value="true" checked`, `value="São Paulo"`,
		`value="BRL"`, `value="4"`, `value="5, 8"`, `value="vegetarian, vegan"`, `value="2500"`, `value="USD"`, `<option value="pt" lang="pt-BR" selected>`)
	lacks(t, page.Body, "profile-empty")
	bob := newBrowser(h).login(h.BobKey).get("/app/profile")
	hasAll(t, bob.Body, "profile-empty")
	lacks(t, bob.Body, "São Paulo", "checked")

	t.Run("values the planner could not use", func(t *testing.T) {
		for _, c := range []struct{ field, value string }{
			{"home_city", strings.Repeat("a", 201)},
			{"currency", "euro"},
			{"party_size", "0"},
			{"party_size", "21"},
			{"children_ages", "5, 18"},
			{"diet", "a, b, c, d, e, f, g, h, i, j, k"},
			{"budget", "-1"},
			{"budget_currency", "eu"},
			{"language", "fr"},
		} {
			form := profileForm()
			form.Set(c.field, c.value)
			r := b.submit("/app/profile", form)
			if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `role="alert"`) || !strings.Contains(string(r.Body), `href="/app"`) {
				t.Errorf("%s %q = %d %s, want an error page", c.field, c.value, r.Status, r.Body)
			}
		}
		mustRemember(h.With(t), h.Alice.ID, want, true)
	})

	t.Run("forget", func(t *testing.T) {
		mustStatus(t, b.post("/app/profile/forget", url.Values{}), http.StatusForbidden)
		mustRemember(h.With(t), h.Alice.ID, want, true)
		r := b.submit("/app/profile/forget", nil)
		mustStatus(t, r, http.StatusSeeOther)
		if loc := r.Header.Get("Location"); loc != "/app/profile?forgotten=1" {
			t.Fatalf("Location %q", loc)
		}
		mustRemember(h.With(t), h.Alice.ID, nodes.Profile{}, true) // the consent stays
		hasAll(t, b.get(r.Header.Get("Location")).Body, `role="status"`, "profile-empty", "checked")
	})

	t.Run("consent withdrawn", func(t *testing.T) {
		mustStatus(t, b.submit("/app/profile", profileForm()), http.StatusSeeOther)
		form := profileForm()
		form.Del("remember")
		mustStatus(t, b.submit("/app/profile", form), http.StatusSeeOther)
		mustRemember(h.With(t), h.Alice.ID, nodes.Profile{}, false)
		page := b.get("/app/profile")
		hasAll(t, page.Body, "profile-empty")
		lacks(t, page.Body, "São Paulo", "checked")
	})

	t.Run("no session", func(t *testing.T) {
		anon := newBrowser(h.With(t))
		mustStatus(t, anon.get("/app/profile"), http.StatusSeeOther)
		mustStatus(t, anon.post("/app/profile", profileForm()), http.StatusUnauthorized)
		mustStatus(t, anon.post("/app/profile/forget", url.Values{}), http.StatusUnauthorized)
		mustRemember(h.With(t), h.Alice.ID, nodes.Profile{}, false)
	})
}

// Whatever the planner's items hold (written before the store's API
// checked them, or by hand), the profile page shows what it can read of
// them and never fails: each member of the right type, the others left
// out; a consent that is not true is not given. The planner recalls the
// same.
func TestProfilePageReadsWhatItCan(t *testing.T) {
	h := apptest.New(t)
	b := newBrowser(h).login(h.AliceKey)
	it := h.Tenant(h.Alice.ID).Items
	put := func(key nodes.ItemKey, value string) {
		t.Helper()
		if err := it.Put(context.Background(), items.PutItem{Namespace: key.Namespace, Key: key.Key, Value: json.RawMessage(value)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		profile, consent string
		shows            []string
		given            bool
	}{
		{`{"homeCity":5,"partySize":"four","budget":{"amount":"x"},"diet":["vegan"],"language":"pt"}`, `{"remember":"yes"}`,
			[]string{`value="vegan"`, `<option value="pt" lang="pt-BR" selected>`}, false},
		{`{"homeCity":["Braga"],"childrenAges":{"a":1},"homeCountry":"Portugal"}`, `{"remember":1}`, []string{`value="Portugal"`}, false},
		{`{"diet":"vegan","currency":"EUR"}`, `{}`, []string{`value="EUR"`}, false},
		{`{"budget":[],"partySize":1e30,"homeCity":"Braga"}`, `{"remember":true,"x":{}}`, []string{`value="Braga"`}, true},
	} {
		put(nodes.ProfileItem, c.profile)
		put(nodes.ConsentItem, c.consent)
		page := b.get("/app/profile")
		if page.Status != http.StatusOK {
			t.Fatalf("the profile page with %s and %s: %d %s", c.profile, c.consent, page.Status, page.Body)
		}
		hasAll(t, page.Body, c.shows...)
		if given := strings.Contains(string(page.Body), `value="true" checked`); given != c.given {
			t.Errorf("consent %s shown given: %v", c.consent, given)
		}
		if _, err := h.Tenant(h.Alice.ID).Memory.Recall(context.Background()); err != nil {
			t.Errorf("the planner recalling %s: %v", c.profile, err)
		}
	}
	if p, err := h.Tenant(h.Alice.ID).Memory.Recall(context.Background()); err != nil || p.HomeCity != "Braga" || p.PartySize != 0 || p.Budget != nil {
		t.Errorf("the planner recalls %+v (%v), want the home city alone", p, err)
	}
}
