// Package jwtauth verifies the JSON Web Tokens that an operator's own
// identity provider gives its end users, so that each of them is a
// tripgraph user of their own.
//
// A token is accepted only when its signature checks against a key of
// the provider's JSON Web Key Set (fetched from its URL, or found through
// the issuer's OpenID Connect discovery document, and refreshed in the
// background), its algorithm is one the operator allows (never "none"),
// its issuer and audience are the ones configured, and it is within its
// validity, give or take the clock skew allowed. Tokens are parsed and
// checked by github.com/golang-jwt/jwt/v5; key sets are fetched, cached
// and refreshed by github.com/MicahParks/keyfunc/v3 and its jwkset.
package jwtauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// Config says which tokens to accept.
type Config struct {
	// Issuer is the exact "iss" of accepted tokens.
	Issuer string
	// JWKSURL is where the provider publishes its keys; "" finds it in
	// the issuer's discovery document (Issuer + "/.well-known/openid-configuration").
	JWKSURL string
	// Audience are the "aud" values accepted: a token must name one.
	Audience []string
	// Algorithms are the signing algorithms accepted (RS256, ES256, …).
	Algorithms []string
	// ClockSkew is how far the clocks of the provider and this server
	// may differ when expiry and "not before" are checked.
	ClockSkew time.Duration
	// Refresh is how often the key set is fetched again; a token signed
	// by a key not yet known also fetches it, at most once a minute.
	Refresh time.Duration
	// Client fetches the discovery document and the key set; nil is a
	// client with a 10 s timeout.
	Client *http.Client
	// Logger receives failed refreshes.
	Logger *slog.Logger
}

// Verifier checks tokens. It is safe for concurrent use.
type Verifier struct {
	issuer string
	parser *jwt.Parser
	keys   keyfunc.Keyfunc
}

// DefaultAlgorithms are the algorithms accepted when none are configured:
// the asymmetric ones identity providers sign with.
var DefaultAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// New makes a Verifier; ctx ends its background refreshes. The key set
// is fetched once before New returns, so that a wrong URL is found at
// start.
func New(ctx context.Context, c Config) (*Verifier, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	client := c.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	jwksURL := c.JWKSURL
	if jwksURL == "" {
		var err error
		if jwksURL, err = discoverKeys(ctx, client, c.Issuer); err != nil {
			return nil, err
		}
	}
	keys, err := keySet(ctx, client, jwksURL, c)
	if err != nil {
		return nil, err
	}
	parser := jwt.NewParser(jwt.WithValidMethods(c.Algorithms), jwt.WithIssuer(c.Issuer),
		jwt.WithAudience(c.Audience...), jwt.WithLeeway(c.ClockSkew), jwt.WithExpirationRequired(), jwt.WithIssuedAt())
	return &Verifier{issuer: c.Issuer, parser: parser, keys: keys}, nil
}

func (c *Config) check() error {
	if c.Issuer == "" {
		return errors.New("end-user tokens: an issuer is required")
	}
	if len(c.Audience) == 0 {
		return errors.New("end-user tokens: an audience is required, so that tokens minted for another service are refused")
	}
	if len(c.Algorithms) == 0 {
		c.Algorithms = DefaultAlgorithms
	}
	for _, alg := range c.Algorithms {
		if m := jwt.GetSigningMethod(alg); m == nil || alg == "none" || strings.HasPrefix(alg, "HS") {
			return fmt.Errorf("end-user tokens: %q is not an asymmetric signing algorithm", alg)
		}
	}
	if c.Refresh <= 0 {
		c.Refresh = time.Hour
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return nil
}

// keySet fetches the key set at url and keeps it fresh until ctx ends.
func keySet(ctx context.Context, client *http.Client, url string, c Config) (keyfunc.Keyfunc, error) {
	remote, err := jwkset.NewStorageFromHTTP(url, jwkset.HTTPClientStorageOptions{
		Ctx: ctx, Client: client, RefreshInterval: c.Refresh,
		RefreshErrorHandler: func(ctx context.Context, err error) {
			c.Logger.WarnContext(ctx, "refreshing the end-user token keys failed", "url", url, "err", err)
		},
	})
	if err != nil {
		return nil, fmt.Errorf("end-user tokens: fetching the key set at %s: %w", url, err)
	}
	storage, err := jwkset.NewHTTPClient(jwkset.HTTPClientOptions{
		HTTPURLs: map[string]jwkset.Storage{url: remote},
		// A token of an unknown key fetches the set again, at most once a
		// minute. The limit is never waited for (a wait longer than this
		// bound fails at once), and the bound is also the fetch's time.
		RefreshUnknownKID: rate.NewLimiter(rate.Every(time.Minute), 1),
		RateLimitWaitMax:  5 * time.Second,
	})
	if err != nil {
		return nil, fmt.Errorf("end-user tokens: %w", err)
	}
	return keyfunc.New(keyfunc.Options{Ctx: ctx, Storage: storage})
}

// discoverKeys reads the key set's URL from the issuer's OpenID Connect
// discovery document, which must name the same issuer.
func discoverKeys(ctx context.Context, client *http.Client, issuer string) (string, error) {
	where := strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
	if err != nil {
		return "", fmt.Errorf("end-user tokens: discovery at %s: %w", where, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("end-user tokens: discovery at %s: %w", where, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("end-user tokens: discovery at %s answered %s", where, resp.Status)
	}
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil {
		return "", fmt.Errorf("end-user tokens: reading the discovery document at %s: %w", where, err)
	}
	if doc.Issuer != issuer {
		return "", fmt.Errorf("end-user tokens: the discovery document at %s names issuer %q, not %q", where, doc.Issuer, issuer)
	}
	if doc.JWKSURI == "" {
		return "", fmt.Errorf("end-user tokens: the discovery document at %s has no jwks_uri", where)
	}
	return doc.JWKSURI, nil
}

// Verify checks a token and returns the end user it names: the issuer
// and its subject. Any failure is UNAUTHENTICATED, with the reason.
func (v *Verifier) Verify(ctx context.Context, token string) (accounts.Identity, error) {
	var claims jwt.RegisteredClaims
	if _, err := v.parser.ParseWithClaims(token, &claims, v.keys.KeyfuncCtx(ctx)); err != nil {
		return accounts.Identity{}, errcode.New(errcode.Unauthenticated, "the token is not valid: %s", reason(err))
	}
	id := accounts.Identity{Issuer: claims.Issuer, Subject: claims.Subject}
	if id.Subject == "" {
		return accounts.Identity{}, errcode.New(errcode.Unauthenticated, "the token names no subject")
	}
	if err := id.Check(); err != nil {
		return accounts.Identity{}, errcode.New(errcode.Unauthenticated, "the token's subject cannot be a user: %s", errcode.Message(err))
	}
	return id, nil
}

// reason says why a token failed in a few words, without echoing it.
func reason(err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return "it has expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet), errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		return "it is not valid yet"
	case errors.Is(err, jwt.ErrTokenInvalidAudience):
		return "it is for another audience"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return "it is from another issuer"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid), errors.Is(err, jwt.ErrTokenUnverifiable):
		return "its signature does not check"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "it is malformed"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return "a required claim is missing"
	}
	return "it cannot be checked"
}

// LooksLikeJWT reports whether a bearer credential has a JWT's shape
// (three dot-separated parts), as no API key has.
func LooksLikeJWT(token string) bool { return strings.Count(token, ".") == 2 }
