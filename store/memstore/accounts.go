package memstore

import (
	"context"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// Accounts are the users, their API keys (kept as hashes), browser
// sessions and one-time login links, as store/accounts keeps them.
type Accounts struct{ s *state }

// accountsData is what Accounts keep, by the hash of the key or token.
type accountsData struct {
	keys     map[string]*apiKey
	sessions map[string]accounts.Session
	links    map[string]loginLink
}

type apiKey struct {
	user, label string
	revoked     bool
}

type loginLink struct {
	user    string
	expires time.Time
}

func (s *state) initAccounts() {
	s.accounts = accountsData{keys: map[string]*apiKey{}, sessions: map[string]accounts.Session{}, links: map[string]loginLink{}}
}

// CreateUser makes a new user. A name that breaks the naming rule is a
// BAD_REQUEST; a name already taken is a CONFLICT.
func (a *Accounts) CreateUser(_ context.Context, name string) (accounts.User, error) {
	if err := accounts.CheckName(name); err != nil {
		return accounts.User{}, err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if _, ok := a.s.userByName(name); ok {
		return accounts.User{}, errcode.New(errcode.Conflict, "user %q exists already", name)
	}
	return a.s.addUser(name), nil
}

// EnsureUser returns the user with this name, creating it if needed.
func (a *Accounts) EnsureUser(ctx context.Context, name string) (accounts.User, error) {
	if err := accounts.CheckName(name); err != nil {
		return accounts.User{}, err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if u, ok := a.s.userByName(name); ok {
		return u.account(), nil
	}
	return a.s.addUser(name), nil
}

// UserByName returns the user with this name, or a NOT_FOUND error.
func (a *Accounts) UserByName(_ context.Context, name string) (accounts.User, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if u, ok := a.s.userByName(name); ok {
		return u.account(), nil
	}
	return accounts.User{}, errcode.New(errcode.NotFound, "no user with name %q", name)
}

// UserByID returns the user with this id, or a NOT_FOUND error.
func (a *Accounts) UserByID(_ context.Context, id string) (accounts.User, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if u, ok := a.s.users[id]; ok {
		return u.account(), nil
	}
	return accounts.User{}, errcode.New(errcode.NotFound, "no user with id %q", id)
}

// knownUser fails NOT_FOUND unless id is a user's; the caller holds mu.
func (s *state) knownUser(id string) error {
	if _, ok := s.users[id]; !ok {
		return errcode.New(errcode.NotFound, "no user with id %q", id)
	}
	return nil
}

// CreateAPIKey makes a new API key for a user and returns it; only its
// hash is kept.
func (a *Accounts) CreateAPIKey(_ context.Context, userID, label string) (string, error) {
	key, err := accounts.NewAPIKey()
	if err != nil {
		return "", err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if err := a.s.knownUser(userID); err != nil {
		return "", err
	}
	a.s.accounts.keys[string(accounts.Hash(key))] = &apiKey{user: userID, label: label}
	return key, nil
}

// UserByAPIKey returns the owner of a valid, unrevoked API key, or a
// FORBIDDEN error that does not say whether the key ever existed.
func (a *Accounts) UserByAPIKey(_ context.Context, key string) (accounts.User, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	k, ok := a.s.accounts.keys[string(accounts.Hash(key))]
	if !ok || k.revoked {
		return accounts.User{}, errcode.New(errcode.Forbidden, "invalid API key")
	}
	return a.s.users[k.user].account(), nil
}

// RevokeAPIKey revokes userID's key.
func (a *Accounts) RevokeAPIKey(_ context.Context, userID, key string) error {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	k, ok := a.s.accounts.keys[string(accounts.Hash(key))]
	if !ok || k.revoked || k.user != userID {
		return errcode.New(errcode.NotFound, "no such active API key")
	}
	k.revoked = true
	return nil
}

// CreateSession opens a session for a user that lasts ttl, with a new
// CSRF token.
func (a *Accounts) CreateSession(_ context.Context, userID string, ttl time.Duration) (accounts.Session, error) {
	token, err := accounts.NewToken()
	if err != nil {
		return accounts.Session{}, err
	}
	csrf, err := accounts.NewToken()
	if err != nil {
		return accounts.Session{}, err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if err := a.s.knownUser(userID); err != nil {
		return accounts.Session{}, err
	}
	sess := accounts.Session{Token: token, UserID: userID, CSRFToken: csrf, ExpiresAt: a.s.now().Add(ttl)}
	for h, old := range a.s.accounts.sessions {
		if !old.ExpiresAt.After(a.s.now()) {
			delete(a.s.accounts.sessions, h)
		}
	}
	a.s.accounts.sessions[string(accounts.Hash(token))] = sess
	return sess, nil
}

// SessionByToken returns the unexpired session a cookie's token opens, or
// an UNAUTHENTICATED error that does not say whether it ever existed.
func (a *Accounts) SessionByToken(_ context.Context, token string) (accounts.Session, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	sess, ok := a.s.accounts.sessions[string(accounts.Hash(token))]
	if !ok || !sess.ExpiresAt.After(a.s.now()) {
		return accounts.Session{}, errcode.New(errcode.Unauthenticated, "no such session, or it has expired")
	}
	return sess, nil
}

// DeleteSession ends a session; ending one that is gone already is not an
// error.
func (a *Accounts) DeleteSession(_ context.Context, token string) error {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	delete(a.s.accounts.sessions, string(accounts.Hash(token)))
	return nil
}

// CreateLoginLink makes a token that opens a session for the user once,
// within ttl.
func (a *Accounts) CreateLoginLink(_ context.Context, userID string, ttl time.Duration) (string, error) {
	token, err := accounts.NewToken()
	if err != nil {
		return "", err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if err := a.s.knownUser(userID); err != nil {
		return "", err
	}
	a.s.accounts.links[string(accounts.Hash(token))] = loginLink{user: userID, expires: a.s.now().Add(ttl)}
	return token, nil
}

// UseLoginLink spends a login link and returns its user.
func (a *Accounts) UseLoginLink(_ context.Context, token string) (string, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	h := string(accounts.Hash(token))
	link, ok := a.s.accounts.links[h]
	delete(a.s.accounts.links, h)
	if !ok || !link.expires.After(a.s.now()) {
		return "", errcode.New(errcode.Unauthenticated, "the login link is unknown or was used already")
	}
	return link.user, nil
}

// userByName finds a user by name; the caller holds mu.
func (s *state) userByName(name string) (*user, bool) {
	for _, u := range s.users {
		if u.name == name {
			return u, true
		}
	}
	return nil, false
}

// addUser adds a user; the caller holds mu.
func (s *state) addUser(name string) accounts.User {
	u := &user{id: newID(), name: name, created: s.now()}
	s.users[u.id] = u
	return u.account()
}

func (u *user) account() accounts.User {
	return accounts.User{ID: u.id, Name: u.name, CreatedAt: u.created}
}
