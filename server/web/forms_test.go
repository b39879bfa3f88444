package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// Text PostgreSQL cannot keep (a NUL, bytes that are not UTF-8) in any
// field of any form, and a budget that is not a number (NaN, ±Inf), are
// refused as each form refuses what it cannot use: the run forms with
// their notice in place for htmx and an error page for a plain post, the
// profile with an error page. Nothing is stored, and nothing answers 500.
func TestFormsRefuseWhatCannotBeKept(t *testing.T) {
	h := liveHarness(t)
	b := newBrowser(h).login(h.AliceKey)
	threadID, _ := b.say("", plannertest.Lisbon)
	base := "/app/threads/" + threadID
	trip := func(location string) url.Values {
		return url.Values{"location": {location}, "startDate": {"2027-06-10"}, "endDate": {"2027-06-13"}, "numberOfGuests": {"2"}}
	}
	book := func(id string) url.Values {
		return url.Values{"id": {id}, "startDate": {"2027-06-10"}, "endDate": {"2027-06-13"}, "guests": {"2"}}
	}
	before := len(runsOf(h, threadID))
	for _, c := range []struct {
		name, path string
		form       url.Values
		labelled   string // the field the notice names, when the form labels it
	}{
		{"a NUL in the trip's location", base + "/trip", trip("Por\x00to"), "location"},
		{"bytes not UTF-8 in the trip's location", base + "/trip", trip("Por\xffto"), "location"},
		{"a NUL in a booking's id", base + "/book", book("h1\x00"), ""},
		{"a NUL in a booking's key", base + "/booking", url.Values{"key": {"1.x\x00"}, "confirmed": {"true"}}, ""},
		{"a NUL in a message", base + "/messages", url.Values{"message": {"Porto\x00"}}, "message"},
		{"a NUL in a new thread's message", "/app/messages", url.Values{"message": {"Porto\x00"}}, "message"},
	} {
		r := b.htmx(c.path, c.form)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `role="alert" data-code="BAD_REQUEST" data-fields="`+c.labelled+`"`) ||
			strings.Contains(string(r.Body), "<html") {
			t.Errorf("%s: %d %s, want the form's notice naming %q", c.name, r.Status, r.Body, c.labelled)
		}
		r = b.submit(c.path, c.form)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "<html") || !strings.Contains(string(r.Body), `role="alert"`) {
			t.Errorf("%s, a plain post: %d %s, want an error page", c.name, r.Status, r.Body)
		}
	}
	if after := len(runsOf(h, threadID)); after != before {
		t.Errorf("the refused forms started %d runs", after-before)
	}

	profile := func(field, value string) url.Values {
		form := profileForm()
		form.Set(field, value)
		return form
	}
	for _, form := range []url.Values{profile("home_city", "São\x00Paulo"), profile("home_country", "Bra\xffzil"), profile("diet", "vegan\x00"),
		profile("budget", "NaN"), profile("budget", "nan"), profile("budget", "Inf"), profile("budget", "-Inf"), profile("budget", "+infinity")} {
		r := b.submit("/app/profile", form)
		if r.Status < 400 || r.Status >= 500 || !strings.Contains(string(r.Body), `role="alert"`) || !strings.Contains(string(r.Body), `href="/app"`) {
			t.Errorf("profile %q: %d %s, want an error page", form, r.Status, r.Body)
		}
	}
	mustRemember(h, h.Alice.ID, nodes.Profile{}, false)
}
