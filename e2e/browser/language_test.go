package browser

import (
	"strings"
	"testing"
)

// portuguese checks that the pages speak Portuguese to a browser that
// prefers it, and to anyone who picks it with the switch.
func portuguese(t *testing.T, s *site) {
	t.Run("Accept-Language pt", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("pt-BR,pt;q=0.9,en;q=0.5")
		p.login(s)
		checkLanguage(p, "pt-BR", "Conversas", "Enviar")
	})
	t.Run("Accept-Language pt-PT", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("pt-PT,pt;q=0.9")
		p.login(s)
		checkLanguage(p, "pt-BR", "Conversas", "Enviar") // the one Portuguese there is
	})
	t.Run("a trip in Portuguese", func(t *testing.T) { portugueseTrip(t, s) })
	t.Run("language switch", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("en-GB,en;q=0.9")
		p.login(s)
		checkLanguage(p, "en", "Conversations", "Send")
		p.click(`form.lang button[value="pt"]`)
		p.wait("the page in Portuguese", `document.documentElement.lang === 'pt-BR'`)
		checkLanguage(p, "pt-BR", "Conversas", "Enviar")
		checkAccessibility(p)
		p.navigate(s.base + "/app")
		checkLanguage(p, "pt-BR", "Conversas", "Enviar") // the choice is kept
		p.click(`form.lang button[value="en"]`)
		p.wait("the page in English", `document.documentElement.lang === 'en'`)
		checkLanguage(p, "en", "Conversations", "Send")
	})
}

// checkLanguage checks the page's language and two of its labels: the
// thread list's heading and the Send button.
func checkLanguage(p *tab, lang, threads, send string) {
	p.t.Helper()
	p.waitFor("form.composer")
	got := eval[[]string](p, `[document.documentElement.lang, document.querySelector('#threads-h').textContent.trim(),
		document.querySelector('form.composer button[type=submit]').textContent.trim()]`)
	if want := []string{lang, threads, send}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		p.t.Errorf("page language, threads heading, send button = %q, want %q", got, want)
	}
}

// portugueseTrip plans a trip in Portuguese and reads it as a Brazilian
// traveller would: the city named in Portuguese, the timeline in words,
// and an error page in Portuguese, with none of the server's English.
func portugueseTrip(t *testing.T, s *site) {
	p := newTab(t)
	p.acceptLanguage("pt-BR,pt;q=0.9")
	p.login(s)
	p.send("quero ir para Lisboa de 3 a 7 de maio, somos 3")
	p.waitFor("#conversation .component.accommodations")
	p.wait("the reply to end", runEnded)
	page := eval[string](p, `document.querySelector('#conversation').innerText`)
	for _, want := range []string{"Sua viagem", "Lisboa, Portugal", "Onde ficar: Lisboa", "Restaurantes: Lisboa"} {
		if !strings.Contains(page, want) {
			p.t.Errorf("the conversation does not say %q:\n%s", want, page)
		}
	}
	// (the stays' own names are the catalogue's, in English)
	places := eval[string](p, `[...document.querySelectorAll('#conversation h3, #conversation .city, #conversation .trip-details dd')].map(e => e.textContent).join(' | ')`)
	if strings.Contains(places, "Lisbon") {
		p.t.Errorf("the conversation names the city in English: %s", places)
	}
	thread := currentThread(p)

	p.navigate(thread + "/timeline")
	p.waitFor("nav.timeline li a")
	timeline := eval[string](p, `document.querySelector('nav.timeline').innerText`)
	for _, want := range []string{"Fez as buscas", "adicionou a lista de hospedagens"} {
		if !strings.Contains(timeline, want) {
			p.t.Errorf("the timeline does not say %q:\n%s", want, timeline)
		}
	}
	for _, internal := range []string{"callTools", "extraction", "accommodations-list", "trip-details"} {
		if strings.Contains(timeline, internal) {
			p.t.Errorf("the timeline shows the internal name %q:\n%s", internal, timeline)
		}
	}

	p.errors.expect(s.base + "/app/threads/nope") // a 404, on purpose
	p.navigate(s.base + "/app/threads/nope")
	p.waitFor(`[role="alert"]`)
	problem := eval[string](p, `document.body.innerText`)
	if !strings.Contains(problem, "Isto não foi encontrado.") || strings.Contains(problem, "nope") || strings.Contains(problem, "no thread") {
		p.t.Errorf("the error page says:\n%s", problem)
	}
}
