package ui_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
	"github.com/tripgraph/tripgraph/ui"
)

// TestTimelineBranches checks the marks of a thread that was forked: the
// steps the head does not descend from are on another branch, the end of
// that branch says so, and the step it was forked from counts its
// branches; the fork form continues from the selected step.
func TestTimelineBranches(t *testing.T) {
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	step := func(id, parent string, n int) replay.Step {
		return replay.Step{CheckpointID: id, ParentID: parent, Step: n, CreatedAt: at, Change: replay.Change{Known: true}}
	}
	// c1 → c2 → c3 (the old branch), and c1 → c4 → c5 (the head's).
	steps := []replay.Step{step("c5", "c4", 3), step("c4", "c1", 2), step("c3", "c2", 3), step("c2", "c1", 2), step("c1", "", 1)}
	tl := ui.Timeline{Steps: steps, Selected: "c2", Head: "c5", ForkURL: "/t/fork", CSRFToken: "tok", ThreadURL: "/t",
		StepURL: func(id string) string { return "?checkpoint=" + id }}
	html := render(t, "en", ui.TimelineView(tl))
	checkHTML(t, html, []string{
		`<li id="cp-c3" class="other-branch">`, `<li id="cp-c2" class="other-branch">`, `<li id="cp-c5">`, `<li id="cp-c1">`,
		`<span class="branch">end of another branch</span>`, `<span class="branch">on another branch</span>`,
		`<span class="branch">2 branches from here</span>`,
		`<form class="fork" method="post" action="/t/fork">`, `name="csrf_token" value="tok"`, `name="checkpoint_id" value="c2"`,
		`<label for="fork-message">Continue from here</label>`, `<textarea id="fork-message" name="message"`,
		`<a href="/t">Back to the conversation</a>`,
	}, []string{`<li id="cp-c4" class="other-branch">`})
	if n := strings.Count(html, "end of another branch"); n != 1 {
		t.Errorf("%d branch ends, want 1", n)
	}
	// Without a head or a fork URL: only the branch point, no form.
	checkHTML(t, render(t, "pt", ui.TimelineView(ui.Timeline{Steps: steps, StepURL: tl.StepURL})), []string{"Passo 3", "2 ramos a partir daqui"},
		[]string{"other-branch", "outro ramo", "<form"})
	checkHTML(t, render(t, "pt", ui.TimelineView(tl)), []string{"fim de outro ramo", "2 ramos a partir daqui", "Continuar a partir daqui"}, nil)
}

// TestMediaLinks checks that a page can relink every image and photo it
// shows, and that without a linker the links are kept.
func TestMediaLinks(t *testing.T) {
	state := nodes.State{UI: []nodes.UIComponent{
		component(t, "p", card.Photos, nodes.PhotoGridProps{Photos: []nodes.Photo{{ID: "1", URL: "http://x/full?sig=1", ThumbnailURL: "http://x/thumb?sig=1"}}}),
		component(t, "a", card.Accommodations, stays(nodes.Accommodation{ID: "h1", Name: "Casa", ImageURL: "http://x/pic.png"})),
	}}
	link := func(u string) string { return "/local/" + strings.TrimPrefix(u, "http://x/") }
	ctx := ui.WithMediaLinks(context.Background(), link)
	var b strings.Builder
	if err := ui.Conversation(state).Render(ctx, &b); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, b.String(), []string{`<img src="/local/thumb?sig=1"`, `href="/local/full?sig=1"`, `<img src="/local/pic.png"`}, []string{`"http://x/`})
	checkHTML(t, render(t, "en", ui.Conversation(state)), []string{`<img src="http://x/thumb?sig=1"`}, nil)
}

// TestLoginPages checks the sign-in page's labelled forms and escaping,
// the page that shows a new key once, and the error page.
func TestLoginPages(t *testing.T) {
	login := ui.LoginPage{AssetsURL: "/static", LoginURL: "/login", SignupURL: "/signup", Next: evil, Problem: "login.bad",
		Language: ui.LanguageSwitch{Action: "/app/lang", Next: "/login"}}
	checkHTML(t, render(t, "en", ui.Login(login)), []string{`<html lang="en">`, `<a class="skip" href="#main">`,
		`<label for="api_key">API key</label>`, `<input id="api_key" name="api_key" type="password"`,
		`<label for="name">User name</label>`, `role="alert">That API key is not valid`, `<form class="lang"`,
		`value="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"`}, []string{evil, "csrf_token"})
	checkHTML(t, render(t, "pt", ui.Login(ui.LoginPage{})), []string{`<html lang="pt-BR">`, "Entrar com sua chave de API", "Cadastre-se", "Nome de usuário"}, []string{`class="lang"`})

	key := render(t, "en", ui.NewKey(ui.KeyPage{AssetsURL: "/static", Name: evil, Key: "tg_abc", ContinueURL: "/app"}))
	checkHTML(t, key, []string{`<code class="key">tg_abc</code>`, "shown only now", `<a href="/app">`}, []string{evil})

	problem := render(t, "pt", ui.Problem(ui.ErrorPage{Code: "NOT_FOUND", Fields: []ui.Field{{Name: evil, Problem: evil}}, HomeURL: "/app"}))
	checkHTML(t, problem, []string{"Algo deu errado", "Isto não foi encontrado.", "Esta página não existe ou pertence a outra conta", `role="alert"`}, []string{evil, "Nada foi encontrado"})
	denied := render(t, "en", ui.Problem(ui.ErrorPage{Code: "UNAUTHENTICATED", HomeURL: "/app"}))
	checkHTML(t, denied, []string{"Sign in, then try again."}, nil)
}
