// Package idptest is a small identity provider for tests, on a loopback
// port: it publishes its keys as a JSON Web Key Set and an OpenID Connect
// discovery document, and signs tokens with real keys, so that tests see
// what a real provider's tokens look like.
package idptest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
)

// Audience is the audience the provider's tokens name unless told
// otherwise.
const Audience = "tripgraph-api"

// Provider is an identity provider on a loopback port.
type Provider struct {
	t      testing.TB
	srv    *httptest.Server
	mu     sync.Mutex
	keys   map[string]crypto.Signer // by key id: those published
	served int                      // how many times the key set was fetched
}

// New starts a provider with an RSA key ("rsa-1") and an ECDSA P-256 key
// ("ec-1"); the test stops it.
func New(t testing.TB) *Provider {
	t.Helper()
	p := &Provider{t: t, keys: map[string]crypto.Signer{}}
	p.AddKey("rsa-1", rsaKey(t))
	p.AddKey("ec-1", ecKey(t))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": p.Issuer(), "jwks_uri": p.Issuer() + "/jwks"})
	})
	mux.HandleFunc("GET /jwks", p.serveKeys)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// Issuer is the provider's issuer: its base URL.
func (p *Provider) Issuer() string { return p.srv.URL }

// KeysURL is where the provider publishes its key set.
func (p *Provider) KeysURL() string { return p.srv.URL + "/jwks" }

// KeySetFetches is how many times the key set has been fetched.
func (p *Provider) KeySetFetches() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.served
}

// AddKey publishes a signing key under an id (a rotation, when the set
// held others already).
func (p *Provider) AddKey(id string, key crypto.Signer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys[id] = key
}

func (p *Provider) serveKeys(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.served++
	set := jwkset.JWKSMarshal{}
	for id, key := range p.keys {
		jwk, err := jwkset.NewJWKFromKey(key.Public(), jwkset.JWKOptions{Metadata: jwkset.JWKMetadataOptions{KID: id, USE: jwkset.UseSig}})
		if err != nil {
			p.t.Error(err)
			return
		}
		set.Keys = append(set.Keys, jwk.Marshal())
	}
	json.NewEncoder(w).Encode(set)
}

// Key is the published signing key of that id.
func (p *Provider) Key(id string) crypto.Signer {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.keys[id]
}

// At is now moved by seconds, as a token's time.
func At(seconds int) *jwt.NumericDate {
	return jwt.NewNumericDate(time.Now().Add(time.Duration(seconds) * time.Second))
}

// Claims are a token's claims; Token fills in what is left zero.
type Claims = jwt.RegisteredClaims

// Token signs claims with the published key of that id. Left zero, the
// issuer is the provider's, the audience Audience, the token issued now
// and valid for an hour.
func (p *Provider) Token(keyID string, c Claims) string {
	p.t.Helper()
	p.mu.Lock()
	key := p.keys[keyID]
	p.mu.Unlock()
	if key == nil {
		p.t.Fatalf("the provider has no key %q", keyID)
	}
	return Sign(p.t, key, keyID, p.defaults(c))
}

// For is a valid token for subject, signed with the RSA key.
func (p *Provider) For(subject string) string { return p.Token("rsa-1", Claims{Subject: subject}) }

// defaults fills in what c leaves zero.
func (p *Provider) defaults(c Claims) Claims {
	now := time.Now()
	if c.Issuer == "" {
		c.Issuer = p.Issuer()
	}
	if c.Audience == nil {
		c.Audience = jwt.ClaimStrings{Audience}
	}
	if c.IssuedAt == nil {
		c.IssuedAt = jwt.NewNumericDate(now)
	}
	if c.ExpiresAt == nil {
		c.ExpiresAt = jwt.NewNumericDate(now.Add(time.Hour))
	}
	return c
}

// Sign signs claims with key, naming keyID in the header: RS256 for an
// RSA key, ES256 for an ECDSA one.
func Sign(t testing.TB, key crypto.Signer, keyID string, c Claims) string {
	t.Helper()
	method := jwt.SigningMethod(jwt.SigningMethodRS256)
	if _, ok := key.(*ecdsa.PrivateKey); ok {
		method = jwt.SigningMethodES256
	}
	tok := jwt.NewWithClaims(method, c)
	tok.Header["kid"] = keyID
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Unsigned is a token with the "none" algorithm, as a forger makes it.
func (p *Provider) Unsigned(c Claims) string {
	p.t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodNone, p.defaults(c)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

// HMAC is a token signed with HS256 under secret, as a forger who takes
// a public key for a shared secret makes it.
func (p *Provider) HMAC(keyID string, secret []byte, c Claims) string {
	p.t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, p.defaults(c))
	tok.Header["kid"] = keyID
	s, err := tok.SignedString(secret)
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

func rsaKey(t testing.TB) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func ecKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// RSAKey is a new 2048-bit RSA key, for a key the provider rotates to or
// one a forger holds.
func RSAKey(t testing.TB) *rsa.PrivateKey { return rsaKey(t) }
