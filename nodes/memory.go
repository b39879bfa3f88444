package nodes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tripgraph/tripgraph/errcode"
)

// Where the planner keeps what it remembers of a traveller, among their
// own long-term store items: the profile, and whether they agreed to it.
// A client of the store's API sees and may change both, as they are the
// traveller's own, but only to what the planner would write there
// (CheckStoreWrite); what is read back is read as far as it goes
// (readProfile, readConsent), never a failure.
var (
	ProfileItem = ItemKey{Namespace: []string{PlannerNamespace, "profile"}, Key: "traveller"}
	ConsentItem = ItemKey{Namespace: []string{PlannerNamespace, "settings"}, Key: "memory"}
)

// ItemKey names one item of a traveller's long-term store.
type ItemKey struct {
	Namespace []string
	Key       string
}

// MemoryItems are the items of one traveller's long-term store, as a
// TravellerMemory keeps them.
type MemoryItems interface {
	// Read returns the values of the items keys name, in their order; nil
	// for an item there is not.
	Read(ctx context.Context, keys ...ItemKey) ([]json.RawMessage, error)
	// Write stores value as an item, indexed for search or not.
	Write(ctx context.Context, key ItemKey, value json.RawMessage, indexed bool) error
	// Delete deletes an item; one there is not is no error.
	Delete(ctx context.Context, key ItemKey) error
}

// TravellerMemory is a traveller's profile the planner keeps in their
// items, and their consent to it (off until they give it). It is the
// planner's Memory for the traveller's runs.
type TravellerMemory struct {
	items MemoryItems
	run   *runMemory // what one run read (ForRun); nil reads every time
}

var _ Memory = TravellerMemory{}

// NewMemory is the memory kept in items.
func NewMemory(items MemoryItems) TravellerMemory { return TravellerMemory{items: items} }

// runMemory is what a run read of the traveller's memory, for its later
// nodes.
type runMemory struct {
	mu      sync.Mutex
	read    bool
	consent bool
	profile Profile
}

// ForRun is m for one run: the consent and the profile are read the first
// time a node recalls them and kept for the run's later nodes, and
// remembering what the profile holds already writes nothing. A write reads
// both afresh first, so a profile forgotten while the run went on is not
// written back.
func (m TravellerMemory) ForRun() TravellerMemory {
	return TravellerMemory{items: m.items, run: &runMemory{}}
}

// consentValue is how the consent is stored.
type consentValue struct {
	Remember bool `json:"remember"`
}

// Consent reports whether the traveller agreed to be remembered.
func (m TravellerMemory) Consent(ctx context.Context) (bool, error) {
	raw, err := m.read(ctx, ConsentItem)
	return readConsent(raw), err
}

// SetConsent records whether the traveller agrees to be remembered;
// withdrawing it also forgets what was remembered.
func (m TravellerMemory) SetConsent(ctx context.Context, remember bool) error {
	value, _ := json.Marshal(consentValue{Remember: remember})
	if err := m.items.Write(ctx, ConsentItem, value, false); err != nil {
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
func (m TravellerMemory) DefaultConsent(ctx context.Context, remember bool) error {
	if raw, err := m.read(ctx, ConsentItem); raw != nil || err != nil {
		return err
	}
	return m.SetConsent(ctx, remember)
}

// Profile is what is remembered, whether or not the planner may use it now.
func (m TravellerMemory) Profile(ctx context.Context) (Profile, error) {
	raw, err := m.read(ctx, ProfileItem)
	return readProfile(raw), err
}

// Save replaces the profile (the traveller's own edit); an empty one is
// deleted.
func (m TravellerMemory) Save(ctx context.Context, p Profile) error {
	if p.Empty() {
		return m.Forget(ctx)
	}
	value, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encoding the traveller's profile: %w", err)
	}
	return m.items.Write(ctx, ProfileItem, value, true)
}

// Recall is the profile when the traveller agreed to be remembered, else
// nothing.
func (m TravellerMemory) Recall(ctx context.Context) (Profile, error) {
	if m.run == nil {
		consent, p, err := m.recall(ctx)
		if !consent {
			return Profile{}, err
		}
		return p, err
	}
	m.run.mu.Lock()
	defer m.run.mu.Unlock()
	if !m.run.read {
		consent, p, err := m.recall(ctx)
		if err != nil {
			return Profile{}, err
		}
		m.run.read, m.run.consent, m.run.profile = true, consent, p
	}
	if !m.run.consent {
		return Profile{}, nil
	}
	return m.run.profile, nil
}

// recall reads the consent and, when it is given, the profile: both at
// once.
func (m TravellerMemory) recall(ctx context.Context) (consent bool, p Profile, err error) {
	values, err := m.items.Read(ctx, ConsentItem, ProfileItem)
	if err != nil {
		return false, p, fmt.Errorf("reading the traveller's memory: %w", err)
	}
	if !readConsent(values[0]) {
		return false, p, nil
	}
	return true, readProfile(values[1]), nil
}

// Remember merges p into the profile, when the traveller agreed to be
// remembered.
func (m TravellerMemory) Remember(ctx context.Context, p Profile) error {
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
func (m TravellerMemory) consentRead() bool {
	m.run.mu.Lock()
	defer m.run.mu.Unlock()
	return m.run.consent
}

// sameProfile reports whether two profiles hold the same.
func sameProfile(a, b Profile) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// Forget deletes the profile; the consent stays as it was.
func (m TravellerMemory) Forget(ctx context.Context) error {
	if m.run != nil {
		m.run.mu.Lock()
		m.run.profile = Profile{}
		m.run.mu.Unlock()
	}
	return m.items.Delete(ctx, ProfileItem)
}

// read reads one item's value; nil when there is none.
func (m TravellerMemory) read(ctx context.Context, key ItemKey) (json.RawMessage, error) {
	values, err := m.items.Read(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("reading the item %s: %w", key.Key, err)
	}
	return values[0], nil
}

// readConsent is a stored consent: given when its remember is true, and
// not when it is anything else or there is none.
func readConsent(raw json.RawMessage) bool {
	var c consentValue
	return json.Unmarshal(raw, &c) == nil && c.Remember
}

// readProfile is what the planner can use of a stored profile: each member
// of the right type, the others left out, so that a value a client wrote
// by hand (through the store's API, before such writes were checked) is
// shown and used as far as it goes, never a failure.
func readProfile(raw json.RawMessage) Profile {
	var p Profile
	if raw == nil || json.Unmarshal(raw, &p) == nil {
		return p
	}
	p = Profile{}
	var members map[string]json.RawMessage
	json.Unmarshal(raw, &members)
	for _, name := range slices.Sorted(maps.Keys(members)) {
		one, _ := json.Marshal(map[string]json.RawMessage{name: members[name]})
		if json.Unmarshal(one, &Profile{}) == nil {
			json.Unmarshal(one, &p)
		}
	}
	return p
}

// PlannerNamespace is the first label of the namespaces the planner keeps
// its items under (ProfileItem, ConsentItem), reserved for them.
const PlannerNamespace = "tripgraph"

// CheckStoreWrite refuses what a client of the store's API writes in the
// planner's namespace that the planner would not have written there: an
// item it does not keep, a profile the profile page could not have saved
// (unknown members, members of the wrong type, or Profile.Check's
// refusals), a consent that is not {"remember": true or false}. A write
// in any other namespace is the client's own business.
func CheckStoreWrite(namespace []string, key string, value json.RawMessage) error {
	if len(namespace) == 0 || namespace[0] != PlannerNamespace {
		return nil
	}
	k := ItemKey{Namespace: namespace, Key: key}
	switch {
	case k.is(ProfileItem):
		var p Profile
		if err := strictly(value, &p); err != nil {
			return errcode.New(errcode.BadRequest, "the traveller's profile: %s", err)
		}
		return p.Check()
	case k.is(ConsentItem):
		if err := strictly(value, &consentValue{}); err != nil {
			return errcode.New(errcode.BadRequest, `the consent to memory must be {"remember": true or false}: %s`, err)
		}
		return nil
	}
	return errcode.New(errcode.BadRequest, "the namespace %s is the planner's: it keeps there only the item %q in %s and %q in %s",
		PlannerNamespace, ProfileItem.Key, strings.Join(ProfileItem.Namespace, "."), ConsentItem.Key, strings.Join(ConsentItem.Namespace, "."))
}

// is reports whether k names the same item as other.
func (k ItemKey) is(other ItemKey) bool {
	return k.Key == other.Key && slices.Equal(k.Namespace, other.Namespace)
}

// strictly decodes value into dst, refusing members dst has not, and
// says what is wrong as a client wrote it.
func strictly(value json.RawMessage, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		return fmt.Errorf("%s cannot be a %s", te.Field, te.Value)
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}
