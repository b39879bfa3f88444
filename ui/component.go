package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	"github.com/a-h/templ"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
)

// Component renders one UI component of the planner's state, chosen by its
// name. Its element id is DOMID(c.ID). A component whose name is unknown or
// whose props cannot be read is shown as an error in its place.
func Component(c nodes.UIComponent) templ.Component {
	id := DOMID(c.ID)
	switch c.Name {
	case card.TripDetails:
		return withProps(c, id, tripDetails)
	case card.Accommodations:
		return withProps(c, id, accommodationsList)
	case card.Restaurants:
		return withProps(c, id, restaurantsList)
	case card.Albums:
		return withProps(c, id, albumList)
	case card.Photos:
		return withProps(c, id, photoGrid)
	case card.TripStats:
		return withProps(c, id, tripStats)
	case card.BookingConfirmation:
		return withProps(c, id, bookingConfirmation)
	}
	slog.Warn("rendering a UI component", "component", c.ID, "err", fmt.Errorf("unknown component name %q", c.Name))
	return unreadable(id, c.Name)
}

// withProps decodes a component's props into P and renders them with
// render, or renders the failure in place.
func withProps[P any](c nodes.UIComponent, id string, render func(id string, p P) templ.Component) templ.Component {
	var p P
	if err := json.Unmarshal(c.Props, &p); err != nil {
		slog.Warn("rendering a UI component", "component", c.ID, "err", fmt.Errorf("decoding the props of %s: %w", c.Name, err))
		return unreadable(id, c.Name)
	}
	return render(id, p)
}

type swapKey struct{}

// Swap renders a component as an out-of-band fragment: its root element
// carries hx-swap-oob, so htmx replaces the element with the same id
// (DOMID of the component id) wherever it is on the page.
func Swap(c nodes.UIComponent) templ.Component { return OutOfBand(Component(c)) }

// OutOfBand renders a fragment whose root element carries hx-swap-oob: a
// component or a tool status line. Give it nothing that nests components
// (a message, a conversation): each of them would be swapped on its own.
func OutOfBand(c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return c.Render(context.WithValue(ctx, swapKey{}, true), w)
	})
}

// swapAttrs are the extra attributes of a component's root element.
func swapAttrs(ctx context.Context) templ.Attributes {
	if on, _ := ctx.Value(swapKey{}).(bool); on {
		return templ.Attributes{"hx-swap-oob": "true"}
	}
	return nil
}
