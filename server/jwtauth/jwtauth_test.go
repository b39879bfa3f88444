package jwtauth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/jwtauth"
	"github.com/tripgraph/tripgraph/testing/idptest"
)

func verifier(t *testing.T, idp *idptest.Provider, c jwtauth.Config) *jwtauth.Verifier {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if c.Issuer == "" {
		c.Issuer = idp.Issuer()
	}
	if c.Audience == nil {
		c.Audience = []string{idptest.Audience}
	}
	v, err := jwtauth.New(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A token passes only with a published key's signature, an allowed
// algorithm, the issuer and an audience configured, and within its
// times, give or take the skew.
func TestVerify(t *testing.T) {
	idp := idptest.New(t)
	v := verifier(t, idp, jwtauth.Config{ClockSkew: time.Minute}) // keys found by discovery
	now := time.Now()
	at := func(d time.Duration) *jwt.NumericDate { return jwt.NewNumericDate(now.Add(d)) }
	forger := idptest.RSAKey(t)
	cases := []struct {
		name  string
		token string
		ok    bool
	}{
		{"RSA", idp.For("vivi"), true},
		{"ECDSA", idp.Token("ec-1", idptest.Claims{Subject: "vivi"}), true},
		{"one audience of several", idp.Token("rsa-1", idptest.Claims{Subject: "vivi", Audience: jwt.ClaimStrings{"other", idptest.Audience}}), true},
		{"expired within the skew", idp.Token("rsa-1", idptest.Claims{Subject: "vivi", ExpiresAt: at(-30 * time.Second)}), true},
		{"expired", idp.Token("rsa-1", idptest.Claims{Subject: "vivi", ExpiresAt: at(-2 * time.Minute)}), false},
		{"no expiry", idptest.Sign(t, idp.Key("rsa-1"), "rsa-1", idptest.Claims{Subject: "vivi", Issuer: idp.Issuer(), Audience: jwt.ClaimStrings{idptest.Audience}}), false},
		{"not before, past the skew", idp.Token("rsa-1", idptest.Claims{Subject: "vivi", NotBefore: at(2 * time.Minute)}), false},
		{"issued in the future", idp.Token("rsa-1", idptest.Claims{Subject: "vivi", IssuedAt: at(5 * time.Minute)}), false},
		{"another audience", idp.Token("rsa-1", idptest.Claims{Subject: "vivi", Audience: jwt.ClaimStrings{"another-api"}}), false},
		{"another issuer", idp.Token("rsa-1", idptest.Claims{Subject: "vivi", Issuer: "https://evil.example"}), false},
		{"no subject", idp.Token("rsa-1", idptest.Claims{}), false},
		{"a forged signature", idptest.Sign(t, forger, "rsa-1", idptest.Claims{Subject: "vivi", Issuer: idp.Issuer(), Audience: jwt.ClaimStrings{idptest.Audience}, ExpiresAt: at(time.Hour)}), false},
		{"the none algorithm", idp.Unsigned(idptest.Claims{Subject: "vivi"}), false},
		{"HS256 keyed by text", idp.HMAC("rsa-1", []byte("secret"), idptest.Claims{Subject: "vivi"}), false},
		{"a key no one published", idptest.Sign(t, forger, "unknown", idptest.Claims{Subject: "vivi", Issuer: idp.Issuer(), Audience: jwt.ClaimStrings{idptest.Audience}, ExpiresAt: at(time.Hour)}), false},
		{"garbage", "a.b.c", false},
		{"a subject with NUL", idp.Token("rsa-1", idptest.Claims{Subject: "vi\x00vi"}), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id, err := v.Verify(t.Context(), c.token)
			if c.ok && (err != nil || id.Subject != "vivi" || id.Issuer != idp.Issuer()) {
				t.Fatalf("refused: %v (%+v)", err, id)
			}
			if !c.ok && errcode.Of(err) != errcode.Unauthenticated {
				t.Fatalf("accepted, or not UNAUTHENTICATED: %+v, %v", id, err)
			}
		})
	}
}

// Only the algorithms configured are accepted.
func TestAlgorithmAllowList(t *testing.T) {
	idp := idptest.New(t)
	v := verifier(t, idp, jwtauth.Config{JWKSURL: idp.KeysURL(), Algorithms: []string{"RS256"}})
	if _, err := v.Verify(t.Context(), idp.For("vivi")); err != nil {
		t.Fatalf("RS256: %v", err)
	}
	_, err := v.Verify(t.Context(), idp.Token("ec-1", idptest.Claims{Subject: "vivi"}))
	if errcode.Of(err) != errcode.Unauthenticated {
		t.Fatalf("ES256 outside the allow list: %v", err)
	}
}

// A key the provider rotates to is fetched when a token first names it.
func TestKeyRotation(t *testing.T) {
	idp := idptest.New(t)
	v := verifier(t, idp, jwtauth.Config{})
	before := idp.KeySetFetches()
	idp.AddKey("rsa-2", idptest.RSAKey(t))
	if _, err := v.Verify(t.Context(), idp.Token("rsa-2", idptest.Claims{Subject: "vivi"})); err != nil {
		t.Fatalf("a token of the new key: %v", err)
	}
	if idp.KeySetFetches() != before+1 {
		t.Errorf("the key set was fetched %d times for one new key", idp.KeySetFetches()-before)
	}
	// Within the minute, tokens of keys no one knows fetch nothing more
	// and do not wait: a flood of them costs the provider nothing.
	forger := idptest.RSAKey(t)
	start := time.Now()
	for range 20 {
		if _, err := v.Verify(t.Context(), idptest.Sign(t, forger, "made-up", idptest.Claims{Subject: "x", Issuer: idp.Issuer(),
			Audience: jwt.ClaimStrings{idptest.Audience}, ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))})); err == nil {
			t.Fatal("a token of a made-up key was accepted")
		}
	}
	if n := idp.KeySetFetches(); n != before+1 {
		t.Errorf("made-up keys fetched the set %d more times", n-before-1)
	}
	t.Logf("20 tokens of made-up keys refused in %v", time.Since(start))
}

// What cannot work is refused when the verifier is made.
func TestConfigRefused(t *testing.T) {
	idp := idptest.New(t)
	for _, c := range []struct {
		name string
		cfg  jwtauth.Config
		want string
	}{
		{"no audience", jwtauth.Config{Issuer: idp.Issuer()}, "audience"},
		{"a symmetric algorithm", jwtauth.Config{Issuer: idp.Issuer(), Audience: []string{"a"}, Algorithms: []string{"HS256"}}, "asymmetric"},
		{"none", jwtauth.Config{Issuer: idp.Issuer(), Audience: []string{"a"}, Algorithms: []string{"none"}}, "asymmetric"},
		{"discovery of another issuer", jwtauth.Config{Issuer: idp.Issuer() + "/other", Audience: []string{"a"}}, "discovery"},
		{"a key set that is not there", jwtauth.Config{Issuer: idp.Issuer(), Audience: []string{"a"}, JWKSURL: idp.Issuer() + "/missing"}, "key set"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := jwtauth.New(t.Context(), c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one about %q", err, c.want)
			}
		})
	}
}
