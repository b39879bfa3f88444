package tenant_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// turn runs one planner turn for the tenant, with its memory, as the
// runner does.
func turn(t *testing.T, tn tenant.Tenant, thread, text string) nodes.State {
	t.Helper()
	s, err := tn.RunPlanner(tn.Checkpoints).Invoke(context.Background(), graph.RunConfig[nodes.Update]{ThreadID: thread, Input: nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: text}}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func lastAI(s nodes.State) string {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Type == nodes.AI {
			return s.Messages[i].Content
		}
	}
	return ""
}

// With the traveller's consent, what they say of themselves is kept; a
// second conversation starts from it and says so; "forget" deletes it.
// Without consent nothing is kept, and another user's memory is apart.
func TestMemoryAcrossConversations(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, "memory")
	f := tenant.Factory{Records: tenant.OnPostgres(st, mcpservers.Registry{Pool: st.Pool}), Planner: plannertest.Planner(t), Tools: (&plannertest.Gate{}).Tools}
	ana, bob := f.For(user(t, st, "memory-ana")), f.For(user(t, st, "memory-bob"))

	// No consent yet: nothing is remembered.
	turn(t, ana, uuid.NewString(), "4 nights in Lisbon in May, 4 of us, from São Paulo")
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Fatalf("remembered without consent: %+v", p)
	}

	if err := ana.Memory.SetConsent(ctx, true); err != nil {
		t.Fatal(err)
	}
	turn(t, ana, uuid.NewString(), "4 nights in Lisbon in May, 4 of us, from São Paulo, one of us is vegetarian")
	p, err := ana.Memory.Profile(ctx)
	if err != nil || p.PartySize != 4 || p.HomeCity != "São Paulo" || !slices.Equal(p.Diet, []string{"vegetarian"}) || p.Language != "en" {
		t.Fatalf("remembered %+v (%v)", p, err)
	}
	if p, _ := bob.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("bob's memory holds %+v", p)
	}

	// A second conversation: the party comes from the profile, and the
	// answer says so.
	second := uuid.NewString()
	s := turn(t, ana, second, "3 nights in Porto in June")
	if s.TripDetails == nil || s.TripDetails.NumberOfGuests != 4 || slices.Contains(s.Assumed, nodes.FieldGuests) {
		t.Fatalf("the second trip: %+v assumed %v", s.TripDetails, s.Assumed)
	}
	if got := lastAI(s); !strings.Contains(got, "4 of you again, from São Paulo?") {
		t.Errorf("the answer does not say what it remembered: %q", got)
	}
	// A party stated wins, and is remembered.
	s = turn(t, ana, uuid.NewString(), "3 nights in Porto in June, 2 of us")
	if s.TripDetails.NumberOfGuests != 2 || strings.Contains(lastAI(s), "again") {
		t.Errorf("a stated party: %d guests, %q", s.TripDetails.NumberOfGuests, lastAI(s))
	}
	if p, _ := ana.Memory.Profile(ctx); p.PartySize != 2 {
		t.Errorf("the party remembered after a new one was stated: %d", p.PartySize)
	}

	// Forget, in the middle of a conversation.
	s = turn(t, ana, second, "esqueça meus dados")
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("after forget: %+v", p)
	}
	if !s.Forgotten || !strings.Contains(lastAI(s), "esqueci o que sabia sobre você") {
		t.Errorf("the answer to forget: %q (forgotten %v)", lastAI(s), s.Forgotten)
	}
	turn(t, ana, second, "4 nights in Lisbon in May, 4 of us, from São Paulo")
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("a conversation that asked to be forgotten was remembered: %+v", p)
	}

	// Withdrawing consent forgets too.
	turn(t, ana, uuid.NewString(), "Lisbon in May, 3 of us")
	if err := ana.Memory.SetConsent(ctx, false); err != nil {
		t.Fatal(err)
	}
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("after consent was withdrawn: %+v", p)
	}
}
