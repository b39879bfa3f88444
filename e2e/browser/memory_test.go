package browser

import (
	"strings"
	"testing"
)

// lastAnswer is the text of the conversation's last assistant message.
const lastAnswer = `[...document.querySelectorAll('#conversation article.message.ai .body')].map(b => b.textContent.trim()).at(-1) || ''`

// memory follows a traveller who lets the planner remember them: they turn
// memory on in the profile page, plan a trip, find it remembered there, start
// a second conversation that takes its party from the profile and says so,
// then ask to be forgotten and find the page empty.
func memory(t *testing.T, s *site) {
	p := newTab(t)
	p.acceptLanguage("en")
	step := func(name string, f func(p *tab)) {
		if !t.Run(name, func(t *testing.T) { f(p.under(t)) }) {
			t.FailNow()
		}
	}
	step("turn memory on", func(p *tab) {
		p.login(s)
		p.click("nav.threads .profile-link a")
		p.waitFor("form.profile")
		if eval[bool](p, `document.querySelector('#remember').checked`) {
			p.t.Error("memory is on before the traveller turned it on")
		}
		p.click("#remember")
		p.click("form.profile button[type=submit]")
		p.waitFor(`p.status[role="status"]`)
		if !eval[bool](p, `document.querySelector('#remember').checked`) {
			p.t.Fatal("memory is still off after saving")
		}
		checkAccessibility(p)
	})
	step("a first conversation is remembered", func(p *tab) {
		p.navigate(s.base + "/app")
		p.appReady()
		p.send("4 nights in Lisbon in May, 4 of us, from São Paulo")
		p.wait("the reply to end", runEnded+` && document.querySelectorAll('#conversation article.message.ai').length > 0`)
		p.navigate(s.base + "/app/profile")
		p.waitFor("form.profile")
		got := eval[[]string](p, `[document.querySelector('#home_city').value, document.querySelector('#party_size').value]`)
		if got[0] != "São Paulo" || got[1] != "4" {
			p.t.Errorf("the profile page shows home %q, party %q; want São Paulo, 4", got[0], got[1])
		}
	})
	step("a second conversation starts from the profile and says so", func(p *tab) {
		p.navigate(s.base + "/app")
		p.appReady()
		p.send("3 nights in Porto in June")
		p.wait("the reply to end", runEnded+` && document.querySelectorAll('#conversation article.message.ai').length > 0`)
		if got := eval[string](p, lastAnswer); !strings.Contains(got, "4 of you again, from São Paulo?") {
			p.t.Errorf("the answer does not say what it remembered: %q", got)
		}
		trip := eval[string](p, `document.querySelector('#conversation .component.trip-details').textContent`)
		if !strings.Contains(trip, "Porto") || !strings.Contains(trip, "4") {
			p.t.Errorf("the trip is not Porto for 4: %q", trip)
		}
	})
	step("forget empties it", func(p *tab) {
		p.send("forget what you know about me")
		p.wait("the answer to forget", runEnded+` && (`+lastAnswer+`).includes('forgotten')`)
		p.navigate(s.base + "/app/profile")
		p.waitFor("form.profile")
		if !eval[bool](p, `document.querySelector('.profile-empty') !== null && document.querySelector('#home_city').value === '' && document.querySelector('#party_size').value === ''`) {
			p.t.Error("the profile page still shows what was remembered")
		}
		if !eval[bool](p, `document.querySelector('#remember').checked`) {
			p.t.Error("forgetting turned memory off; it should only delete what was remembered")
		}
	})
}
