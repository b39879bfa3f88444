package tenant

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store/items"
)

// Where the planner keeps what it remembers of a traveller, in their own
// store items: the profile, and whether they agreed to it. A client of the
// store API sees and may change both, as they are the user's own.
var (
	ProfileNamespace  = []string{"tripgraph", "profile"}
	SettingsNamespace = []string{"tripgraph", "settings"}
)

const (
	profileKey = "traveller"
	consentKey = "memory"
)

// Memory is the traveller's profile the planner keeps, and their consent
// to it (off until they give it). It is the planner's nodes.Memory for the
// user's runs.
type Memory struct {
	items items.Owned
}

// Memory is the user's memory.
func (t Tenant) Memory() Memory { return Memory{items: t.Items} }

var _ nodes.Memory = Memory{}

// Consent reports whether the traveller agreed to be remembered.
func (m Memory) Consent(ctx context.Context) (bool, error) {
	var v struct {
		Remember bool `json:"remember"`
	}
	ok, err := m.read(ctx, SettingsNamespace, consentKey, &v)
	return ok && v.Remember, err
}

// SetConsent records whether the traveller agrees to be remembered;
// withdrawing it also forgets what was remembered.
func (m Memory) SetConsent(ctx context.Context, remember bool) error {
	value, _ := json.Marshal(map[string]bool{"remember": remember})
	if err := m.items.Put(ctx, items.PutItem{Namespace: SettingsNamespace, Key: consentKey, Value: value, NoIndex: true}); err != nil {
		return fmt.Errorf("recording the consent to memory: %w", err)
	}
	if !remember {
		return m.Forget(ctx)
	}
	return nil
}

// DefaultConsent records a consent for a traveller who never gave or
// refused one (the demo user's, on in the demo); one already recorded
// stays.
func (m Memory) DefaultConsent(ctx context.Context, remember bool) error {
	var v map[string]any
	if ok, err := m.read(ctx, SettingsNamespace, consentKey, &v); ok || err != nil {
		return err
	}
	return m.SetConsent(ctx, remember)
}

// Profile is what is remembered, whether or not the planner may use it now.
func (m Memory) Profile(ctx context.Context) (nodes.Profile, error) {
	var p nodes.Profile
	_, err := m.read(ctx, ProfileNamespace, profileKey, &p)
	return p, err
}

// Save replaces the profile (the traveller's own edit); an empty one is
// deleted.
func (m Memory) Save(ctx context.Context, p nodes.Profile) error {
	if p.Empty() {
		return m.Forget(ctx)
	}
	value, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encoding the traveller's profile: %w", err)
	}
	return m.items.Put(ctx, items.PutItem{Namespace: ProfileNamespace, Key: profileKey, Value: value})
}

// Recall is the profile when the traveller agreed to be remembered, else
// nothing.
func (m Memory) Recall(ctx context.Context) (nodes.Profile, error) {
	if ok, err := m.Consent(ctx); !ok || err != nil {
		return nodes.Profile{}, err
	}
	return m.Profile(ctx)
}

// Remember merges p into the profile, when the traveller agreed to be
// remembered.
func (m Memory) Remember(ctx context.Context, p nodes.Profile) error {
	if ok, err := m.Consent(ctx); !ok || err != nil {
		return err
	}
	cur, err := m.Profile(ctx)
	if err != nil {
		return err
	}
	return m.Save(ctx, cur.Merge(p))
}

// Forget deletes the profile; the consent stays as it was.
func (m Memory) Forget(ctx context.Context) error {
	return m.items.Delete(ctx, ProfileNamespace, profileKey)
}

func (m Memory) read(ctx context.Context, ns []string, key string, dst any) (bool, error) {
	it, ok, err := m.items.Get(ctx, ns, key, false)
	if err != nil || !ok {
		return false, err
	}
	if err := json.Unmarshal(it.Value, dst); err != nil {
		return false, fmt.Errorf("reading %s: %w", key, err)
	}
	return true, nil
}
