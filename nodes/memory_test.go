package nodes

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

// mapItems are store items in a map, for the memory's tests.
type mapItems struct {
	mu     sync.Mutex
	values map[string]json.RawMessage
	writes int
}

func itemName(k ItemKey) string { return strings.Join(k.Namespace, ".") + "/" + k.Key }

func (m *mapItems) Read(_ context.Context, keys ...ItemKey) ([]json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]json.RawMessage, len(keys))
	for i, k := range keys {
		out[i] = m.values[itemName(k)]
	}
	return out, nil
}

func (m *mapItems) Write(_ context.Context, k ItemKey, v json.RawMessage, _ bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.values == nil {
		m.values = map[string]json.RawMessage{}
	}
	m.values[itemName(k)] = slices.Clone(v)
	m.writes++
	return nil
}

func (m *mapItems) Delete(_ context.Context, k ItemKey) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.values, itemName(k))
	return nil
}

// Without consent nothing is recalled or remembered; with it, what is
// remembered is merged into the profile; withdrawing it forgets; a consent
// given stays when a default is offered.
func TestTravellerMemoryConsent(t *testing.T) {
	ctx := context.Background()
	items := &mapItems{}
	m := NewMemory(items)
	if err := m.Remember(ctx, Profile{HomeCity: "Braga"}); err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Profile(ctx); !p.Empty() {
		t.Fatalf("remembered without consent: %+v", p)
	}
	if err := m.DefaultConsent(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := m.Remember(ctx, Profile{HomeCity: "Braga"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Remember(ctx, Profile{PartySize: 3}); err != nil {
		t.Fatal(err)
	}
	if p, err := m.Recall(ctx); err != nil || p.HomeCity != "Braga" || p.PartySize != 3 {
		t.Fatalf("recalled %+v (%v), want Braga and 3", p, err)
	}
	if err := m.SetConsent(ctx, false); err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Profile(ctx); !p.Empty() {
		t.Fatalf("withdrawing consent kept %+v", p)
	}
	if err := m.DefaultConsent(ctx, true); err != nil {
		t.Fatal(err)
	}
	if ok, _ := m.Consent(ctx); ok {
		t.Fatal("a default replaced the consent the traveller withdrew")
	}
}

// A run's memory reads the profile once and keeps it for the run; what it
// remembers later is merged into the profile as it is then, so a profile
// forgotten by another request while the run went on is not written back,
// and remembering what it holds already writes nothing.
func TestRunMemoryWritesNoStaleProfile(t *testing.T) {
	ctx := context.Background()
	items := &mapItems{}
	m := NewMemory(items)
	if err := m.SetConsent(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(ctx, Profile{HomeCity: "São Paulo", PartySize: 4}); err != nil {
		t.Fatal(err)
	}
	run := m.ForRun()
	if p, err := run.Recall(ctx); err != nil || p.HomeCity != "São Paulo" {
		t.Fatalf("recalled %+v (%v)", p, err)
	}
	writes := items.writes
	if err := run.Remember(ctx, Profile{PartySize: 4}); err != nil || items.writes != writes {
		t.Fatalf("remembering what the profile holds wrote %d times (%v)", items.writes-writes, err)
	}
	if err := m.Forget(ctx); err != nil { // another request, while the run goes on
		t.Fatal(err)
	}
	if err := run.Remember(ctx, Profile{PartySize: 4}); err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Profile(ctx); !p.Empty() {
		t.Fatalf("remembering what the run had read wrote it back: %+v", p)
	}
	if err := run.Remember(ctx, Profile{Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Profile(ctx); p.Currency != "EUR" || p.HomeCity != "" || p.PartySize != 0 {
		t.Fatalf("the profile after a run remembered a currency: %+v, want only the currency", p)
	}
	if p, _ := run.Recall(ctx); p.Currency != "EUR" {
		t.Fatalf("the run's memory after it remembered: %+v", p)
	}
}
