package nodes

import (
	"testing"

	"github.com/tripgraph/tripgraph/card"
)

// Every card a tool may name has the props its result is read into, but
// the booking confirmation, which the booking itself makes.
func TestEveryResultCardHasProps(t *testing.T) {
	for _, name := range card.Results {
		if _, ok := resultProps[name]; !ok && name != card.BookingConfirmation {
			t.Errorf("the card %s has no props for a tool's result", name)
		}
	}
}
