package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// textPrinter prints a run's events as readable text: the nodes as they
// run, each component, and the assistant's answer as it streams.
type textPrinter struct {
	w         io.Writer
	streaming bool // the answer's tokens are being printed
}

func (p *textPrinter) event(ev graph.Event[nodes.State, nodes.Update]) {
	switch ev.Kind {
	case graph.NodeStarted:
		p.endStream()
		fmt.Fprintf(p.w, "· %s\n", ev.Node)
	case graph.Custom:
		if c, ok := ev.Payload.(nodes.UIComponent); ok {
			p.endStream()
			fmt.Fprint(p.w, renderComponent(c))
		}
	case graph.Token:
		if !p.streaming {
			fmt.Fprint(p.w, "assistant: ")
			p.streaming = true
		}
		fmt.Fprint(p.w, ev.Token)
	case graph.NodeFinished:
		if p.streaming {
			p.endStream()
			return
		}
		for _, m := range ev.Update.Messages { // answers that were not streamed
			if m.Type == nodes.AI {
				fmt.Fprintf(p.w, "assistant: %s\n", m.Content)
			}
		}
	}
}

func (p *textPrinter) endStream() {
	if p.streaming {
		fmt.Fprintln(p.w)
		p.streaming = false
	}
}

// renderComponent is a component as a few lines of text.
func renderComponent(c nodes.UIComponent) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  ▸ %s", c.Name)
	switch c.Name {
	case card.TripDetails:
		var p nodes.TripDetailsProps
		json.Unmarshal(c.Props, &p)
		td := p.TripDetails
		fmt.Fprintf(&b, "  %s · %s → %s · %s · %s%s\n", place(td.Location, td.Country), td.StartDate, td.EndDate,
			count(p.Nights, "night", "nights"), count(td.NumberOfGuests, "guest", "guests"), assumed(p.Assumed))
	case card.Accommodations:
		var p nodes.AccommodationsListProps
		json.Unmarshal(c.Props, &p)
		fmt.Fprintf(&b, "  %s in %s%s\n", count(len(p.Accommodations), "place", "places"), p.Location, problem(p.Error, p.Message))
		for _, a := range p.Accommodations {
			fmt.Fprintf(&b, "      %-34s %-10s %4.0f %s/night  %6.0f total  ★%.1f  sleeps %d\n", a.Name, a.Kind, a.NightlyPrice, a.Currency, a.TotalPrice, a.Rating, a.Capacity)
		}
	case card.Restaurants:
		var p nodes.RestaurantsListProps
		json.Unmarshal(c.Props, &p)
		fmt.Fprintf(&b, "  %s in %s%s\n", count(len(p.Restaurants), "restaurant", "restaurants"), p.Location, problem(p.Error, p.Message))
		for _, r := range p.Restaurants {
			fmt.Fprintf(&b, "      %-34s %-12s %-4s ★%.1f  %.1f km\n", r.Name, r.Cuisine, r.PriceRange, r.Rating, r.DistanceKm)
		}
	case card.Albums:
		var p nodes.AlbumListProps
		json.Unmarshal(c.Props, &p)
		fmt.Fprintf(&b, "  %s%s\n", count(len(p.Albums), "album", "albums"), problem(p.Error, ""))
		for _, a := range p.Albums {
			fmt.Fprintf(&b, "      %-34s %s → %s  %s\n", a.Name, a.StartDate, a.EndDate, count(a.PhotoCount, "photo", "photos"))
		}
	case card.Photos:
		var p nodes.PhotoGridProps
		json.Unmarshal(c.Props, &p)
		total := count(max(p.Total, len(p.Photos)), "photo", "photos")
		if p.TotalIsLowerBound {
			total = fmt.Sprintf("%d+ photos", p.Total)
		}
		fmt.Fprintf(&b, "  %s, %d shown%s\n", total, len(p.Photos), problem(p.Error, ""))
		for i, ph := range p.Photos {
			if i == 8 {
				fmt.Fprintf(&b, "      … and %d more\n", len(p.Photos)-i)
				break
			}
			fmt.Fprintf(&b, "      %s  %-40s %s\n", ph.TakenAt, ph.Description, ph.LocationName)
		}
	case card.TripStats:
		var p nodes.TripStatsProps
		json.Unmarshal(c.Props, &p)
		fmt.Fprintf(&b, "  %s: %s over %s (%s → %s)%s\n", p.Name, count(p.TotalPhotos, "photo", "photos"), count(p.Days, "day", "days"), p.StartDate, p.EndDate, problem(p.Error, ""))
		for _, l := range p.Locations {
			fmt.Fprintf(&b, "      %-34s %d\n", l.Name, l.Count)
		}
	default:
		fmt.Fprintf(&b, "  %s\n", c.Props)
	}
	return b.String()
}

// count writes "1 guest", "3 guests".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// assumed names the trip fields filled in by default: " (assumed:
// startDate, numberOfGuests)".
func assumed(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	return " (assumed: " + strings.Join(fields, ", ") + ")"
}

func place(city, country string) string {
	if country == "" {
		return city
	}
	return city + ", " + country
}

// problem is a component's error or message, for its title line.
func problem(err *nodes.ToolError, message string) string {
	switch {
	case err != nil:
		return fmt.Sprintf(" (%s: %s)", err.Code, err.Message)
	case message != "":
		return " (" + message + ")"
	}
	return ""
}

// jsonEvent is an event as one JSON line.
type jsonEvent struct {
	Event        string        `json:"event"`
	RunID        string        `json:"run_id"`
	ThreadID     string        `json:"thread_id"`
	Step         int           `json:"step,omitempty"`
	Node         string        `json:"node,omitempty"`
	Name         string        `json:"name,omitempty"`
	Payload      any           `json:"payload,omitempty"`
	Token        string        `json:"token,omitempty"`
	MessageID    string        `json:"message_id,omitempty"`
	Update       *nodes.Update `json:"update,omitempty"`
	State        *nodes.State  `json:"state,omitempty"`
	CheckpointID string        `json:"checkpoint_id,omitempty"`
	Next         []string      `json:"next,omitempty"`
	Error        string        `json:"error,omitempty"`
	Interrupt    any           `json:"interrupt,omitempty"`
}

func toJSONEvent(ev graph.Event[nodes.State, nodes.Update]) jsonEvent {
	out := jsonEvent{Event: ev.Kind.String(), RunID: ev.RunID, ThreadID: ev.ThreadID, Step: ev.Step, Node: ev.Node,
		Name: ev.Name, Payload: ev.Payload, Token: ev.Token, MessageID: ev.MessageID}
	switch ev.Kind {
	case graph.NodeFinished:
		out.Update = &ev.Update
	case graph.RunFinished:
		out.State = &ev.State
	case graph.CheckpointSaved:
		out.CheckpointID, out.Next = ev.Checkpoint.ID, ev.Checkpoint.Next
	case graph.RunFailed:
		out.Error = ev.Err.Error()
	case graph.Interrupted:
		out.State, out.Interrupt = &ev.State, ev.Interrupt
	}
	return out
}
