package tenant

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

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
	run   *runMemory // what one run read (ForRun); nil reads every time
}

// runMemory is what a run read of the traveller's memory, for its later
// nodes.
type runMemory struct {
	mu      sync.Mutex
	read    bool
	consent bool
	profile nodes.Profile
}

// ForRun is m for one run: the consent and the profile are read the first
// time a node recalls them and kept for the run's later nodes, and
// remembering what the profile holds already writes nothing. A write reads
// both afresh first, so a profile forgotten while the run went on is not
// written back.
func (m Memory) ForRun() Memory { return Memory{items: m.items, run: &runMemory{}} }

// Memory is the user's memory.
func (t Tenant) Memory() Memory { return Memory{items: t.Items} }

var _ nodes.Memory = Memory{}

// Consent reports whether the traveller agreed to be remembered.
func (m Memory) Consent(ctx context.Context) (bool, error) {
	var v consentValue
	ok, err := m.read(ctx, SettingsNamespace, consentKey, &v)
	return ok && v.Remember, err
}

// consentValue is how the consent is stored.
type consentValue struct {
	Remember bool `json:"remember"`
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
	if m.run == nil {
		consent, p, err := m.recall(ctx)
		if !consent {
			return nodes.Profile{}, err
		}
		return p, err
	}
	m.run.mu.Lock()
	defer m.run.mu.Unlock()
	if !m.run.read {
		consent, p, err := m.recall(ctx)
		if err != nil {
			return nodes.Profile{}, err
		}
		m.run.read, m.run.consent, m.run.profile = true, consent, p
	}
	if !m.run.consent {
		return nodes.Profile{}, nil
	}
	return m.run.profile, nil
}

// recall reads the consent and, when it is given, the profile: both in
// one statement.
func (m Memory) recall(ctx context.Context) (consent bool, p nodes.Profile, err error) {
	list, err := m.items.GetEach(ctx, items.Ref{Namespace: SettingsNamespace, Key: consentKey},
		items.Ref{Namespace: ProfileNamespace, Key: profileKey})
	if err != nil {
		return false, p, fmt.Errorf("reading the traveller's memory: %w", err)
	}
	var c consentValue
	for _, it := range list {
		if it.Key == consentKey && slices.Equal(it.Namespace, SettingsNamespace) {
			if err := decodeItem(it, &c); err != nil {
				return false, p, err
			}
		}
	}
	if !c.Remember {
		return false, p, nil
	}
	for _, it := range list {
		if it.Key == profileKey && slices.Equal(it.Namespace, ProfileNamespace) {
			if err := decodeItem(it, &p); err != nil {
				return false, nodes.Profile{}, err
			}
		}
	}
	return true, p, nil
}

// Remember merges p into the profile, when the traveller agreed to be
// remembered.
func (m Memory) Remember(ctx context.Context, p nodes.Profile) error {
	if m.run != nil {
		cur, err := m.Recall(ctx)
		if err != nil || !m.consentRead() || sameProfile(cur.Merge(p), cur) {
			return err
		}
	}
	consent, cur, err := m.recall(ctx)
	if !consent || err != nil {
		return err
	}
	merged := cur.Merge(p)
	if err := m.Save(ctx, merged); err != nil {
		return err
	}
	if m.run != nil {
		m.run.mu.Lock()
		m.run.profile = merged
		m.run.mu.Unlock()
	}
	return nil
}

// consentRead is the consent the run read.
func (m Memory) consentRead() bool {
	m.run.mu.Lock()
	defer m.run.mu.Unlock()
	return m.run.consent
}

// sameProfile reports whether two profiles hold the same.
func sameProfile(a, b nodes.Profile) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// Forget deletes the profile; the consent stays as it was.
func (m Memory) Forget(ctx context.Context) error {
	if m.run != nil {
		m.run.mu.Lock()
		m.run.profile = nodes.Profile{}
		m.run.mu.Unlock()
	}
	return m.items.Delete(ctx, ProfileNamespace, profileKey)
}

func (m Memory) read(ctx context.Context, ns []string, key string, dst any) (bool, error) {
	it, ok, err := m.items.Get(ctx, ns, key, false)
	if err != nil || !ok {
		return false, err
	}
	return true, decodeItem(it, dst)
}

// decodeItem decodes an item's value into dst.
func decodeItem(it items.Item, dst any) error {
	if err := json.Unmarshal(it.Value, dst); err != nil {
		return fmt.Errorf("reading %s: %w", it.Key, err)
	}
	return nil
}
