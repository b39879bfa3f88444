package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpauth"
	"github.com/tripgraph/tripgraph/store/accounts"
)

var testSecret = []byte("a test secret of enough length")

func httpServer(t *testing.T, f *fixture) *httptest.Server {
	t.Helper()
	return serveHTTP(t, New(testConfig(f, "")), HTTPOptions{
		Authenticate:   Authenticator(f.st.Accounts, testSecret),
		AllowedOrigins: []string{"https://app.example"},
	})
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func connectHTTP(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	transport := &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), transport, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func TestHTTPCredentials(t *testing.T) {
	f := setup(t)
	srv := httpServer(t, f)
	ctx := context.Background()
	anaKey, _, err := f.st.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: f.ana.ID, Label: "test"})
	if err != nil {
		t.Fatal(err)
	}
	anaToken, _ := mcpauth.Mint(testSecret, f.ana.ID, time.Minute)
	bobToken, _ := mcpauth.Mint(testSecret, f.bob.ID, time.Minute)
	forged, _ := mcpauth.Mint([]byte("some other secret, long enough"), f.ana.ID, time.Minute)

	for _, tc := range []struct {
		name     string
		token    string
		albums   int // albums the user sees, or -1 when the connection must fail
		userID   string
		wantCode errcode.Code
	}{
		{"api key", anaKey, 1, "", ""},
		{"token", anaToken, 1, "", ""},
		{"bob's token sees only bob's album", bobToken, 1, "", ""},
		{"token with matching userId", anaToken, 1, f.ana.ID, ""},
		{"token with another userId", anaToken, 0, f.bob.ID, errcode.Forbidden},
		{"forged token", forged, -1, "", ""},
		{"unknown key", "tg_nope", -1, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := connectHTTP(t, srv.URL, tc.token)
			if tc.albums < 0 {
				if err == nil {
					t.Fatal("connected with a bad credential")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			args := map[string]any{}
			if tc.userID != "" {
				args["userId"] = tc.userID
			}
			got := call(t, cs, "getUserAlbums", args)
			if got.code != tc.wantCode {
				t.Fatalf("code %q, want %q", got.code, tc.wantCode)
			}
			if tc.wantCode == "" && count(got, "albums") != tc.albums {
				t.Fatalf("%d albums, want %d", count(got, "albums"), tc.albums)
			}
		})
	}

	// Bob cannot read ana's album, even by id, through his own credential.
	cs, err := connectHTTP(t, srv.URL, bobToken)
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, cs, "getAlbumPhotos", map[string]any{"albumId": f.anaAlbum}); got.code != errcode.NotFound {
		t.Fatalf("bob reading ana's album = %v, want NOT_FOUND", got)
	}
}

func TestHTTPHeaders(t *testing.T) {
	f := setup(t)
	srv := httpServer(t, f)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		name       string
		method     string
		origin     string
		auth       string
		wantStatus int
		wantHeader map[string]string
	}{
		{"no credential", "POST", "", "", http.StatusUnauthorized, map[string]string{"WWW-Authenticate": "Bearer"}},
		{"bad credential", "POST", "", "Bearer tg_nope", http.StatusUnauthorized, map[string]string{"WWW-Authenticate": "Bearer"}},
		{"preflight from an allowed origin", "OPTIONS", "https://app.example", "", http.StatusOK, map[string]string{
			"Access-Control-Allow-Origin":  "https://app.example",
			"Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
			"Access-Control-Allow-Headers": "Content-Type, Authorization, Mcp-Session-Id"}},
		{"preflight from a loopback origin", "OPTIONS", "http://localhost:5173", "", http.StatusOK, map[string]string{
			"Access-Control-Allow-Origin": "http://localhost:5173"}},
		{"a foreign origin", "POST", "https://evil.example", "", http.StatusForbidden, nil},
		{"a foreign preflight", "OPTIONS", "https://evil.example", "", http.StatusForbidden, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL, strings.NewReader(initialize))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.wantStatus)
			}
			for k, v := range tc.wantHeader {
				if !strings.HasPrefix(resp.Header.Get(k), v) {
					t.Errorf("%s = %q, want it to start with %q", k, resp.Header.Get(k), v)
				}
			}
		})
	}
}

func TestIsLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8081": true, "localhost:80": true, "[::1]:9000": true,
		":8081": false, "0.0.0.0:8081": false, "192.168.1.2:80": false, "example.com:80": false, "nonsense": false,
	} {
		if got := IsLoopbackAddr(addr); got != want {
			t.Errorf("IsLoopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}
