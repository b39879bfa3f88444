package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/media"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/web"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
	"github.com/tripgraph/tripgraph/tripdata"
)

const porto = "4 nights in Porto in May, 3 of us"

func TestThreadPagesOfAnotherUser(t *testing.T) {
	h := apptest.New(t)
	tid := h.Thread(h.AliceKey, "")
	h.Turn(h.Alice.ID, tid, plannertest.Lisbon)
	cp := checkpoints(h, tid)[0].ID
	bob := newBrowser(h).login(h.BobKey)
	for _, c := range []struct {
		method, path string
	}{
		{http.MethodGet, "/app/threads/" + tid},
		{http.MethodGet, "/app/threads/" + tid + "/timeline"},
		{http.MethodGet, "/app/threads/" + tid + "/timeline?checkpoint=" + cp},
		{http.MethodPost, "/app/threads/" + tid + "/fork"},
		{http.MethodGet, "/app/threads/" + uuid.NewString()},
		{http.MethodGet, "/app/threads/not-a-uuid/timeline"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			var r apptest.Response
			if c.method == http.MethodGet {
				r = bob.get(c.path)
			} else {
				r = bob.submit(c.path, url.Values{"checkpoint_id": {cp}, "message": {porto}})
			}
			mustStatus(t, r, http.StatusNotFound)
			hasAll(t, r.Body, "<html", "This page does not exist, or it belongs to another account.")
			lacks(t, r.Body, plannertest.Lisbon)
		})
	}
	// In Portuguese (a pt-PT browser too), in its words, not the server's.
	r := bob.get("/app/threads/nope", "Accept-Language", "pt-PT")
	mustStatus(t, r, http.StatusNotFound)
	hasAll(t, r.Body, `<html lang="pt-BR">`, "Isto não foi encontrado.", "Esta página não existe ou pertence a outra conta.")
	lacks(t, r.Body, "no thread", "nope", "not found")
	r = newBrowser(h).post("/app/threads/"+tid+"/fork", url.Values{"message": {porto}}, "Accept-Language", "pt-BR")
	mustStatus(t, r, http.StatusUnauthorized)
	hasAll(t, r.Body, "Você não entrou na sua conta.", "Entre na sua conta e tente de novo.")
	lacks(t, r.Body, "sign in first", "Sign in")
	alice := newBrowser(h).login(h.AliceKey)
	mustStatus(t, alice.get("/app/threads/"+tid), http.StatusOK)
	if bob := bob.get("/app"); strings.Contains(string(bob.Body), tid) {
		t.Error("bob's thread list shows alice's thread")
	}
}

func TestChatPageListsThreads(t *testing.T) {
	h := apptest.New(t)
	older := h.Thread(h.AliceKey, `{"metadata":{"title":"<b>Beach</b> week"}}`)
	newer := h.Thread(h.AliceKey, "")
	h.Turn(h.Alice.ID, newer, plannertest.Lisbon)
	page := newBrowser(h).login(h.AliceKey).get("/app")
	mustStatus(t, page, http.StatusOK)
	body := string(page.Body)
	iNew, iOld := strings.Index(body, web.ThreadURL(newer)), strings.Index(body, web.ThreadURL(older))
	if iNew < 0 || iOld < 0 || iNew > iOld {
		t.Errorf("threads not listed newest first (%d, %d):\n%s", iNew, iOld, body)
	}
	// a thread is titled by its trip, or by its client's title
	hasAll(t, page.Body, `#latest">Lisbon · `, " · 3 guests</a>", "&lt;b&gt;Beach&lt;/b&gt; week", `<form id="composer" class="composer" method="post" action="/app/messages"`,
		`<a class="skip" href="#conversation">`, `<html lang="en">`)
	lacks(t, page.Body, "<b>Beach")
	for k, v := range map[string]string{"X-Frame-Options": "DENY", "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "Content-Security-Policy": web.PagePolicy} {
		if got := page.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
}

// lisbonThenPorto is a thread of Alice's with two turns: Lisbon, then
// Porto.
func lisbonThenPorto(h *apptest.Server) string {
	h.T().Helper()
	tid := h.Thread(h.AliceKey, "")
	h.Turn(h.Alice.ID, tid, plannertest.Lisbon)
	h.Turn(h.Alice.ID, tid, porto)
	return tid
}

func TestThreadPageShowsLatestState(t *testing.T) {
	h := apptest.New(t)
	tid := lisbonThenPorto(h)
	before := len(checkpoints(h, tid))
	b := newBrowser(h).login(h.AliceKey)
	page := b.get("/app/threads/" + tid)
	mustStatus(t, page, http.StatusOK)
	hasAll(t, page.Body, "<title>Porto · ", " · 3 guests · tripgraph</title>", plannertest.Lisbon, porto, "Porto", `id="conversation"`, `class="component trip-details"`,
		`action="/app/threads/`+tid+`/messages"`, `href="/app/threads/`+tid+`/timeline"`,
		// the trip details' edit form is there, with the session's token
		`action="/app/threads/`+tid+`/trip"`, `name="csrf_token" value="`+b.csrf+`"`)
	if n := len(checkpoints(h, tid)); n != before {
		t.Errorf("showing the thread wrote checkpoints: %d, was %d", n, before)
	}
	var runs []json.RawMessage
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs", h.AliceKey, "").Decode(t, &runs)
	if len(runs) != 0 {
		t.Errorf("showing the thread started runs: %d", len(runs))
	}

	// While a run is active (no worker takes it here), the page joins its
	// live stream.
	var run runJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"and restaurants?"}]}}`).Decode(t, &run)
	live := b.get("/app/threads/" + tid)
	hasAll(t, live.Body, `sse-connect="/app/threads/`+tid+`/runs/`+run.RunID+`/live?checkpoint=`)
	lacks(t, page.Body, "sse-connect")
}

// runJSON is a run as the API shows it.
type runJSON struct {
	RunID string `json:"run_id"`
}

var timelineLinks = regexp.MustCompile(`<li id="cp-[^"]*"[^>]*><a href="([^"]+)"`)

func TestTimelineSelectsAStep(t *testing.T) {
	h := apptest.New(t)
	tid := lisbonThenPorto(h)
	cps := checkpoints(h, tid)
	b := newBrowser(h).login(h.AliceKey)
	page := b.get("/app/threads/" + tid + "/timeline")
	mustStatus(t, page, http.StatusOK)
	links := timelineLinks.FindAllSubmatch(page.Body, -1)
	if len(links) != len(cps)-2 { // each turn's input pending is not a step shown
		t.Fatalf("%d steps listed, want %d checkpoints but the 2 inputs pending:\n%s", len(links), len(cps), page.Body)
	}
	hasAll(t, page.Body, `<nav class="timeline"`, porto, `<form class="fork"`)
	lacks(t, page.Body, `action="/app/threads/`+tid+`/trip"`) // the past offers no forms of the present

	// The last checkpoint of the first turn: Lisbon, before Porto was asked.
	var first graph.Checkpoint
	for _, cp := range cps {
		var s nodes.State
		json.Unmarshal(cp.State, &s)
		if len(s.Messages) == 2 && !slices.Equal(cp.Next, []string{graph.START}) { // not the second turn's input pending
			first = cp
			break
		}
	}
	if first.ID == "" {
		t.Fatal("no checkpoint with the first turn only")
	}
	step := b.get("/app/threads/" + tid + "/timeline?checkpoint=" + first.ID)
	mustStatus(t, step, http.StatusOK)
	_, selected, _ := strings.Cut(string(step.Body), `id="replay-h"`)
	selected, _, _ = strings.Cut(selected, `<nav class="timeline"`)
	if !strings.Contains(selected, "Lisbon") || strings.Contains(selected, porto) {
		t.Errorf("the selected step does not show the earlier state:\n%s", selected)
	}
	hasAll(t, step.Body, `name="checkpoint_id" value="`+first.ID+`"`, `aria-current="step"`)
	mustStatus(t, b.get("/app/threads/"+tid+"/timeline?checkpoint="+uuid.NewString()), http.StatusNotFound)
}

func TestForkMakesABranch(t *testing.T) {
	h := apptest.New(t, apptest.WithTools((&plannertest.Gate{}).Tools), apptest.Started())
	tid := h.Thread(h.AliceKey, "")
	h.Turn(h.Alice.ID, tid, plannertest.Lisbon)
	forkAt := checkpoints(h, tid)[0]
	h.Turn(h.Alice.ID, tid, "and restaurants?")
	oldHead := checkpoints(h, tid)[0]
	b := newBrowser(h).login(h.AliceKey)

	cases := []struct {
		name string
		form url.Values
		want int
	}{
		{"no CSRF token", nil, http.StatusForbidden},
		{"unknown checkpoint", url.Values{"checkpoint_id": {uuid.NewString()}, "message": {porto}}, http.StatusNotFound},
		{"empty message", url.Values{"checkpoint_id": {forkAt.ID}, "message": {" "}}, http.StatusBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r apptest.Response
			if c.form == nil {
				r = b.post("/app/threads/"+tid+"/fork", url.Values{"checkpoint_id": {forkAt.ID}, "message": {porto}})
			} else {
				r = b.submit("/app/threads/"+tid+"/fork", c.form)
			}
			mustStatus(t, r, c.want)
		})
	}

	r := b.submit("/app/threads/"+tid+"/fork", url.Values{"checkpoint_id": {forkAt.ID}, "message": {porto}})
	mustStatus(t, r, http.StatusSeeOther)
	if loc := r.Header.Get("Location"); loc != "/app/threads/"+tid+"#latest" {
		t.Errorf("Location %q", loc)
	}
	var runs []runJSON
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs", h.AliceKey, "").Decode(t, &runs)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want the fork's", len(runs))
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+runs[0].RunID+"/join", h.AliceKey, "")

	page := b.get("/app/threads/" + tid)
	hasAll(t, page.Body, plannertest.Lisbon, porto)
	lacks(t, page.Body, "and restaurants?")
	// The old branch is as it was.
	old, err := h.Tenant(h.Alice.ID).Checkpoints.Get(t.Context(), tid, oldHead.ID)
	if err != nil || string(old.State) != string(oldHead.State) {
		t.Fatalf("the old branch's head changed (%v)", err)
	}
	var head nodes.State
	json.Unmarshal(checkpoints(h, tid)[0].State, &head)
	if head.Messages[0].Content != plannertest.Lisbon || head.Messages[len(head.Messages)-2].Content != porto {
		t.Errorf("the new branch does not continue from the fork point: %+v", head.Messages)
	}
	timeline := b.get("/app/threads/" + tid + "/timeline?checkpoint=" + oldHead.ID)
	hasAll(t, timeline.Body, `class="other-branch"`, "end of another branch", "2 branches from here", "and restaurants?")
	if n := strings.Count(string(timeline.Body), "end of another branch"); n != 1 {
		t.Errorf("%d branch ends marked, want 1", n)
	}
}

// The photos of the catalog, which only PostgreSQL keeps.
func TestPhotosForASession(t *testing.T) {
	h := apptest.New(t, apptest.OnPostgres(storetest.Open(t, "web")))
	ctx := t.Context()
	album, err := h.Store.Catalog.EnsureAlbum(ctx, h.Alice.ID, uuid.NewString(), "Beach", "")
	if err != nil {
		t.Fatal(err)
	}
	photo := uuid.NewString()
	if _, err := h.Store.Catalog.AddPhotos(ctx, []tripdata.NewPhoto{{ID: photo, AlbumID: album, UserID: h.Alice.ID,
		Description: "the beach", TakenAt: time.Now(), Path: "photos/" + photo + ".png"}}); err != nil {
		t.Fatal(err)
	}
	mh := media.Handler{Root: t.TempDir(), Secret: []byte("0123456789abcdef"), Photos: h.Store.Catalog, Session: h.Srv.SessionUser}
	mux := http.NewServeMux()
	mh.Register(mux)
	h.Srv.Mount(http.MethodGet, "/media/photos/:id", "photos", mux)

	// A photo grid as the tools give it: signed links on the public URL.
	links := media.URLs{Base: "http://public.example", Secret: []byte("0123456789abcdef"), TTL: time.Hour}
	props, _ := json.Marshal(nodes.PhotoGridProps{Photos: []nodes.Photo{{ID: photo, AlbumID: album,
		URL: links.PhotoURL(photo, h.Alice.ID, "full"), ThumbnailURL: links.PhotoURL(photo, h.Alice.ID, "thumb"), Description: "the beach"}}})
	tid := h.Thread(h.AliceKey, "")
	if _, err := h.Tenant(h.Alice.ID).Planner.UpdateState(ctx, tid, "", nodes.Update{UI: []nodes.UIUpsert{{UIComponent: nodes.UIComponent{
		ID: "photos", Name: card.Photos, Props: props}}}}, "callTools"); err != nil {
		t.Fatal(err)
	}
	alice := newBrowser(h).login(h.AliceKey)
	page := alice.get("/app/threads/" + tid)
	src := regexp.MustCompile(`<img src="([^"]+)"`).FindSubmatch(page.Body)
	if src == nil || string(src[1]) != "/media/photos/"+photo+"?size=thumb" {
		t.Fatalf("the grid's image is %q, want a link the session opens:\n%s", src, page.Body)
	}
	cases := []struct {
		name string
		b    *browser
		want int
	}{
		{"the owner's session", alice, http.StatusOK},
		{"another user's session", newBrowser(h).login(h.BobKey), http.StatusNotFound},
		{"no session", newBrowser(h), http.StatusUnauthorized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.b.get(string(src[1]))
			mustStatus(t, r, c.want)
			if c.want == http.StatusOK && r.Header.Get("Content-Type") != "image/png" {
				t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
			}
		})
	}
}
