package browser

import (
	"testing"
)

// portuguese checks that the pages speak Portuguese to a browser that
// prefers it, and to anyone who picks it with the switch.
func portuguese(t *testing.T, s *site) {
	t.Run("Accept-Language pt", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("pt-BR,pt;q=0.9,en;q=0.5")
		p.login(s)
		checkLanguage(p, "pt", "Conversas", "Enviar")
	})
	t.Run("language switch", func(t *testing.T) {
		p := newTab(t)
		p.acceptLanguage("en-GB,en;q=0.9")
		p.login(s)
		checkLanguage(p, "en", "Conversations", "Send")
		p.click(`form.lang button[value="pt"]`)
		p.wait("the page in Portuguese", `document.documentElement.lang === 'pt'`)
		checkLanguage(p, "pt", "Conversas", "Enviar")
		checkAccessibility(p)
		p.navigate(s.base + "/app")
		checkLanguage(p, "pt", "Conversas", "Enviar") // the choice is kept
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
