package memstore

import (
	"cmp"
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
	keys       map[string]*accounts.Key
	sessions   map[string]accounts.Session
	links      map[string]loginLink
	identities map[accounts.Identity]string // the user of each
}

type loginLink struct {
	user    string
	expires time.Time
}

func (s *state) initAccounts() {
	s.accounts = accountsData{keys: map[string]*accounts.Key{}, sessions: map[string]accounts.Session{},
		links: map[string]loginLink{}, identities: map[accounts.Identity]string{}}
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

// CreateAPIKey makes a new API key and returns it with its record; only
// its hash is kept.
func (a *Accounts) CreateAPIKey(_ context.Context, n accounts.NewKey) (string, accounts.Key, error) {
	if err := n.Check(); err != nil {
		return "", accounts.Key{}, err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if err := a.s.knownUser(n.UserID); err != nil {
		return "", accounts.Key{}, err
	}
	return a.s.addKey(n)
}

// addKey adds a key; the caller holds mu.
func (s *state) addKey(n accounts.NewKey) (string, accounts.Key, error) {
	secret, err := accounts.NewAPIKey()
	if err != nil {
		return "", accounts.Key{}, err
	}
	k := &accounts.Key{ID: newID(), UserID: n.UserID, Label: n.Label, Role: n.Role, CreatedAt: s.now()}
	s.accounts.keys[string(accounts.Hash(secret))] = k
	return secret, *k, nil
}

// UserByAPIKey returns the owner of a valid, unrevoked API key with the
// key's record, or a FORBIDDEN error that does not say whether the key
// ever existed.
func (a *Accounts) UserByAPIKey(_ context.Context, secret string) (accounts.User, accounts.Key, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	k, ok := a.s.accounts.keys[string(accounts.Hash(secret))]
	if !ok || k.Revoked() {
		return accounts.User{}, accounts.Key{}, errcode.New(errcode.Forbidden, "invalid API key")
	}
	k.LastUsedAt = a.s.now()
	return a.s.users[k.UserID].account(), *k, nil
}

// ListAPIKeys lists a user's keys, revoked ones too, newest first.
func (a *Accounts) ListAPIKeys(_ context.Context, userID string) ([]accounts.Key, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	var list []*accounts.Key
	for _, k := range a.s.accounts.keys {
		if k.UserID == userID {
			list = append(list, k)
		}
	}
	sortList(list, func(x, y *accounts.Key) int { return cmp.Or(x.CreatedAt.Compare(y.CreatedAt), cmp.Compare(x.ID, y.ID)) }, true)
	return records(list, func(k *accounts.Key) accounts.Key { return *k }), nil
}

// RevokeAPIKey revokes one of a user's keys by its id, and ends the
// browser sessions opened with it. A key that is not the user's, or is
// revoked already, is NOT_FOUND.
func (a *Accounts) RevokeAPIKey(_ context.Context, userID, keyID string) (accounts.Key, error) {
	if err := accounts.CheckKeyID(keyID); err != nil {
		return accounts.Key{}, err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	k, err := a.s.revokeKey(userID, keyID)
	if err != nil {
		return accounts.Key{}, err
	}
	return *k, nil
}

// RotateAPIKey replaces one of a user's keys with a new one of the same
// label and role, revoking the old one with its sessions.
func (a *Accounts) RotateAPIKey(_ context.Context, userID, keyID string) (string, accounts.Key, error) {
	if err := accounts.CheckKeyID(keyID); err != nil {
		return "", accounts.Key{}, err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	old, err := a.s.revokeKey(userID, keyID)
	if err != nil {
		return "", accounts.Key{}, err
	}
	return a.s.addKey(accounts.NewKey{UserID: userID, Label: old.Label, Role: old.Role})
}

// revokeKey revokes a key in force of the user and ends its sessions; the
// caller holds mu.
func (s *state) revokeKey(userID, keyID string) (*accounts.Key, error) {
	for _, k := range s.accounts.keys {
		if k.ID != keyID || k.UserID != userID || k.Revoked() {
			continue
		}
		k.RevokedAt = s.now()
		for h, sess := range s.accounts.sessions {
			if sess.KeyID == keyID {
				delete(s.accounts.sessions, h)
			}
		}
		return k, nil
	}
	return nil, accounts.NoActiveKey(keyID)
}

// UserByIdentity returns the user of an end user's identity, making one
// the first time the identity is seen.
func (a *Accounts) UserByIdentity(_ context.Context, id accounts.Identity) (accounts.User, error) {
	if err := id.Check(); err != nil {
		return accounts.User{}, err
	}
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	if userID, ok := a.s.accounts.identities[id]; ok {
		return a.s.users[userID].account(), nil
	}
	name, err := accounts.IdentityUserName()
	if err != nil {
		return accounts.User{}, err
	}
	u := a.s.addUser(name)
	a.s.accounts.identities[id] = u.ID
	return u, nil
}

// CreateSession opens a session for a user that lasts ttl, with a new
// CSRF token; keyID is the API key it is opened with ("" for a login
// link).
func (a *Accounts) CreateSession(_ context.Context, userID, keyID string, ttl time.Duration) (accounts.Session, error) {
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
	sess := accounts.Session{Token: token, UserID: userID, KeyID: keyID, CSRFToken: csrf, ExpiresAt: a.s.now().Add(ttl)}
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
	if !ok || !sess.ExpiresAt.After(a.s.now()) || a.s.keyRevoked(sess.KeyID) {
		return accounts.Session{}, errcode.New(errcode.Unauthenticated, "no such session, or it has expired")
	}
	return sess, nil
}

// keyRevoked reports whether the key of this id has been revoked ("": a
// session opened with no key); the caller holds mu.
func (s *state) keyRevoked(keyID string) bool {
	if keyID == "" {
		return false
	}
	for _, k := range s.accounts.keys {
		if k.ID == keyID {
			return k.Revoked()
		}
	}
	return true
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
