package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/api"
	"github.com/tripgraph/tripgraph/server/jwtauth"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/idptest"
)

// endUserServer is a server that takes idp's tokens, and lets backend
// keys act for end users when actFor is set.
func endUserServer(t *testing.T, idp *idptest.Provider, actFor bool) *apptest.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	v, err := jwtauth.New(ctx, jwtauth.Config{Issuer: idp.Issuer(), Audience: []string{idptest.Audience}})
	if err != nil {
		t.Fatal(err)
	}
	return apptest.New(t, apptest.Started(), apptest.Tune(func(c *server.Config) {
		c.EndUserTokens, c.ActForEndUsers = v, actFor
	}))
}

// call sends a request with a bearer credential and, when endUser is
// set, names the end user a backend key acts for.
func call(h *apptest.Server, method, path, bearer, endUser, body string) apptest.Response {
	h.T().Helper()
	req, err := http.NewRequest(method, h.URL+path, strings.NewReader(body))
	if err != nil {
		h.T().Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+bearer)
	if endUser != "" {
		req.Header.Set(api.EndUserHeader, endUser)
	}
	return h.Send(req)
}

// threadIDs are the ids of the threads a credential's search finds.
func threadIDs(h *apptest.Server, bearer, endUser string) []string {
	h.T().Helper()
	r := call(h, http.MethodPost, "/threads/search", bearer, endUser, `{}`)
	if r.Status != http.StatusOK {
		h.T().Fatalf("search: %d %s", r.Status, r.Body)
	}
	var list []struct {
		ThreadID string `json:"thread_id"`
	}
	r.Decode(h.T(), &list)
	var ids []string
	for _, th := range list {
		ids = append(ids, th.ThreadID)
	}
	return ids
}

// newThread makes a thread with a credential and returns its id.
func newThread(h *apptest.Server, bearer, endUser string) string {
	h.T().Helper()
	r := call(h, http.MethodPost, "/threads", bearer, endUser, `{}`)
	var th struct {
		ThreadID string `json:"thread_id"`
	}
	r.Decode(h.T(), &th)
	if r.Status != http.StatusOK || th.ThreadID == "" {
		h.T().Fatalf("creating a thread: %d %s", r.Status, r.Body)
	}
	return th.ThreadID
}

// Two end users signed in by one app's identity provider are two users:
// each sees only their own threads, store items and memory.
func TestEndUsersByToken(t *testing.T) {
	idp := idptest.New(t)
	h := endUserServer(t, idp, false)
	vivi, ana := idp.For("vivi"), idp.Token("ec-1", idptest.Claims{Subject: "ana"})

	viviThread, anaThread := newThread(h, vivi, ""), newThread(h, ana, "")
	if got := threadIDs(h, vivi, ""); len(got) != 1 || got[0] != viviThread {
		t.Errorf("vivi's threads: %v, want only %s", got, viviThread)
	}
	if got := threadIDs(h, ana, ""); len(got) != 1 || got[0] != anaThread {
		t.Errorf("ana's threads: %v, want only %s", got, anaThread)
	}
	if r := call(h, http.MethodGet, "/threads/"+viviThread, ana, "", ""); r.Status != http.StatusNotFound {
		t.Errorf("ana reads vivi's thread: %d", r.Status)
	}

	put := `{"namespace":["notes"],"key":"trip","value":{"who":"vivi"}}`
	if r := call(h, http.MethodPut, "/store/items", vivi, "", put); r.Status != http.StatusNoContent {
		t.Fatalf("vivi's item: %d %s", r.Status, r.Body)
	}
	if r := call(h, http.MethodGet, "/store/items?namespace=notes&key=trip", ana, "", ""); r.Status == http.StatusOK && !strings.Contains(string(r.Body), "null") {
		t.Errorf("ana reads vivi's item: %s", r.Body)
	}
	if r := call(h, http.MethodGet, "/store/items?namespace=notes&key=trip", vivi, "", ""); !strings.Contains(string(r.Body), `"vivi"`) {
		t.Errorf("vivi's own item: %d %s", r.Status, r.Body)
	}

	// Memory: what vivi said of herself is offered to her, not to ana.
	viviUser := userOf(t, h, accounts.Identity{Issuer: idp.Issuer(), Subject: "vivi"})
	anaUser := userOf(t, h, accounts.Identity{Issuer: idp.Issuer(), Subject: "ana"})
	for _, u := range []string{viviUser, anaUser} {
		if err := h.Tenant(u).Memory.SetConsent(t.Context(), true); err != nil {
			t.Fatal(err)
		}
	}
	wait(h, vivi, viviThread, "I live in Braga. 4 nights in Lisbon in May, 3 of us")
	if got := wait(h, vivi, newThread(h, vivi, ""), "3 nights in Porto in June"); !strings.Contains(got, "3 of you again, from Braga?") {
		t.Errorf("vivi's second trip does not start from her profile: %q", got)
	}
	if got := wait(h, ana, anaThread, "3 nights in Porto in June"); strings.Contains(got, "Braga") || strings.Contains(got, "again") {
		t.Errorf("ana is offered vivi's profile: %q", got)
	}
}

// userOf is the user of an identity.
func userOf(t *testing.T, h *apptest.Server, id accounts.Identity) string {
	t.Helper()
	u, err := h.Mem.Accounts.UserByIdentity(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// wait runs a message on a thread with a credential and returns the last
// reply.
func wait(h *apptest.Server, bearer, threadID, text string) string {
	h.T().Helper()
	r := call(h, http.MethodPost, "/threads/"+threadID+"/runs/wait", bearer, "", apptest.RunBody(text))
	var values struct {
		Messages []struct{ Type, Content string } `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &values); err != nil || r.Status != http.StatusOK || len(values.Messages) == 0 {
		h.T().Fatalf("run: %d %s", r.Status, r.Body)
	}
	return values.Messages[len(values.Messages)-1].Content
}

// A token that is expired, for another audience, from another issuer,
// forged, unsigned or signed with a shared secret is a 401.
func TestEndUserTokensRefused(t *testing.T) {
	idp := idptest.New(t)
	h := endUserServer(t, idp, false)
	forger := idptest.RSAKey(t)
	valid := idp.For("vivi")
	cases := map[string]string{
		"expired":        idp.Token("rsa-1", idptest.Claims{Subject: "vivi", ExpiresAt: idptest.At(-2 * 60 * 60)}),
		"wrong audience": idp.Token("rsa-1", idptest.Claims{Subject: "vivi", Audience: []string{"another-api"}}),
		"wrong issuer":   idp.Token("rsa-1", idptest.Claims{Subject: "vivi", Issuer: "https://evil.example"}),
		"forged":         idptest.Sign(t, forger, "rsa-1", idptest.Claims{Subject: "vivi", Issuer: idp.Issuer(), Audience: []string{idptest.Audience}, ExpiresAt: idptest.At(3600)}),
		"none":           idp.Unsigned(idptest.Claims{Subject: "vivi"}),
		"HS256":          idp.HMAC("rsa-1", []byte("tripgraph"), idptest.Claims{Subject: "vivi"}),
		"tampered":       valid[:strings.LastIndex(valid, ".")-4] + "AAAA" + valid[strings.LastIndex(valid, "."):],
	}
	for name, token := range cases {
		t.Run(name, func(t *testing.T) {
			r := call(h.With(t), http.MethodPost, "/threads/search", token, "", `{}`)
			if r.Status != http.StatusUnauthorized || !strings.Contains(string(r.Body), "UNAUTHENTICATED") {
				t.Fatalf("%d %s, want 401 UNAUTHENTICATED", r.Status, r.Body)
			}
		})
	}
	if r := call(h, http.MethodPost, "/threads/search", valid, "", `{}`); r.Status != http.StatusOK {
		t.Fatalf("the valid token: %d %s", r.Status, r.Body)
	}
	if r := call(h, http.MethodPost, "/threads/search", valid, "someone", `{}`); r.Status != http.StatusBadRequest {
		t.Errorf("a token with an end user named: %d %s", r.Status, r.Body)
	}
}

// A backend key acts for the end users its app names, each a user of
// their own and apart from the key's own user; only when the server
// allows it, only a backend key, and each request's log names the key.
func TestBackendKeyActsForEndUsers(t *testing.T) {
	idp := idptest.New(t)
	h := endUserServer(t, idp, true)
	app, err := h.Accounts.EnsureUser(t.Context(), "travel-app")
	if err != nil {
		t.Fatal(err)
	}
	backend, k, err := h.Accounts.CreateAPIKey(t.Context(), accounts.NewKey{UserID: app.ID, Label: "app", Role: accounts.RoleBackend})
	if err != nil {
		t.Fatal(err)
	}
	own := newThread(h, backend, "")
	vivi, ana := newThread(h, backend, "vivi"), newThread(h, backend, "ana")
	for _, c := range []struct{ endUser, want string }{{"", own}, {"vivi", vivi}, {"ana", ana}} {
		if got := threadIDs(h, backend, c.endUser); len(got) != 1 || got[0] != c.want {
			t.Errorf("threads for %q: %v, want %s", c.endUser, got, c.want)
		}
	}
	// The app's "vivi" is not the identity provider's.
	if got := threadIDs(h, idp.For("vivi"), ""); len(got) != 0 {
		t.Errorf("the provider's vivi sees %v", got)
	}
	if !strings.Contains(h.Logs.String(), `"acting_key_id":"`+k.ID+`"`) {
		t.Errorf("no log line names the acting key %s", k.ID)
	}

	_, plain := h.NewUser()
	if r := call(h, http.MethodPost, "/threads/search", plain, "vivi", `{}`); r.Status != http.StatusForbidden {
		t.Errorf("a user key acting for an end user: %d %s", r.Status, r.Body)
	}
	if r := call(h, http.MethodPost, "/threads/search", backend, strings.Repeat("v", accounts.MaxIdentityLength+1), `{}`); r.Status != http.StatusBadRequest {
		t.Errorf("an end user id too long: %d %s", r.Status, r.Body)
	}

	off := endUserServer(t, idp, false)
	app2, _ := off.Accounts.EnsureUser(t.Context(), "travel-app")
	key2, _, _ := off.Accounts.CreateAPIKey(t.Context(), accounts.NewKey{UserID: app2.ID, Role: accounts.RoleBackend})
	if r := call(off, http.MethodPost, "/threads/search", key2, "vivi", `{}`); r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "TRIPGRAPH_ACT_FOR_END_USERS") {
		t.Errorf("acting for an end user on a server that does not allow it: %d %s", r.Status, r.Body)
	}
}
