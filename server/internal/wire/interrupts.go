package wire

// Interrupts as LangGraph's clients show and answer them. A booking
// confirmation is also a request in the human-in-the-loop shape of
// LangChain's HITL middleware, which Agent Chat UI draws with Accept and
// Reject, and such an answer is read back as the planner's own.

import (
	"encoding/json"
	"fmt"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/toolname"
)

// Interrupt is a pause waiting for a person's answer.
type Interrupt struct {
	ID    string          `json:"id"`
	Value json.RawMessage `json:"value"`
}

// interruptOf is a pending interrupt as the API shows it (InterruptValue).
func interruptOf(in graph.PendingInterrupt) Interrupt {
	return Interrupt{ID: in.ID, Value: InterruptValue(in.Payload)}
}

// ActionRequest is one action a human-in-the-loop request asks a person
// to review: a tool call, with its arguments.
type ActionRequest struct {
	Name        string `json:"name"`
	Args        any    `json:"args"`
	Description string `json:"description"`
}

// ReviewConfig says how a person may answer an action request.
type ReviewConfig struct {
	ActionName       string   `json:"action_name"`
	AllowedDecisions []string `json:"allowed_decisions"`
}

// Decisions a person may take on a booking: book it, or not. Editing it
// is not offered: a booking is confirmed as it was priced.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
)

// bookingRequest is a booking confirmation as the interrupt's value: the
// component (id, name, props, messageId: what the browser app shows) with
// the human-in-the-loop request beside it.
type bookingRequest struct {
	nodes.UIComponent
	ActionRequests []ActionRequest `json:"action_requests"`
	ReviewConfigs  []ReviewConfig  `json:"review_configs"`
}

// InterruptValue is an interrupt's payload as the API shows it: a pending
// booking confirmation gains action_requests and review_configs (the
// booking to approve or reject); any other payload is as the node made it.
func InterruptValue(payload json.RawMessage) json.RawMessage {
	c, props, ok := pendingBooking(payload)
	if !ok {
		return payload
	}
	args := map[string]any{"id": props.AccommodationID, "startDate": props.StartDate, "endDate": props.EndDate, "guests": props.Guests}
	desc := fmt.Sprintf("Book %s", props.Name)
	if props.City != "" {
		desc += ", " + props.City
	}
	desc += fmt.Sprintf(": %s to %s (%d nights), %d guests, %.2f %s in total. Confirm by %s.",
		props.StartDate, props.EndDate, props.Nights, props.Guests, props.Total, props.Currency, props.ExpiresAt)
	data, err := json.Marshal(bookingRequest{UIComponent: c,
		ActionRequests: []ActionRequest{{Name: toolname.BookAccommodation, Args: args, Description: desc}},
		ReviewConfigs:  []ReviewConfig{{ActionName: toolname.BookAccommodation, AllowedDecisions: []string{DecisionApprove, DecisionReject}}}})
	if err != nil {
		return payload
	}
	return data
}

// pendingBooking reads a payload as a booking confirmation waiting for an
// answer.
func pendingBooking(payload json.RawMessage) (nodes.UIComponent, nodes.BookingConfirmationProps, bool) {
	var c nodes.UIComponent
	var props nodes.BookingConfirmationProps
	if json.Unmarshal(payload, &c) != nil || c.Name != card.BookingConfirmation ||
		json.Unmarshal(c.Props, &props) != nil || props.Status != nodes.BookingPending || props.Key == "" {
		return c, props, false
	}
	return c, props, true
}

// hitlResponse is a person's answer in the human-in-the-loop shape: one
// decision per action request.
type hitlResponse struct {
	Decisions []struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"decisions"`
}

// ResumeValue is the answer to the interrupts pending as the planner reads
// it. An answer in the human-in-the-loop shape ({"decisions": [...]}) to a
// booking confirmation becomes the planner's {confirmed, key}, with the
// key of the confirmation it answers, so that its deadline still holds;
// any other answer is as it was sent.
func ResumeValue(resume json.RawMessage, pending []graph.PendingInterrupt) (json.RawMessage, error) {
	var r hitlResponse
	var probe map[string]json.RawMessage
	if json.Unmarshal(resume, &probe) != nil || probe["decisions"] == nil {
		return resume, nil
	}
	if strictInto(resume, &r) != nil || len(r.Decisions) != 1 {
		return nil, &ValueError{Field: "command.resume.decisions", Message: "must be one decision: approve or reject"}
	}
	var booking *nodes.BookingConfirmationProps
	for _, in := range pending {
		if _, props, ok := pendingBooking(in.Payload); ok {
			booking = &props
			break
		}
	}
	if booking == nil {
		return nil, &ValueError{Field: "command.resume", Message: "nothing pending on the thread takes decisions: no booking waits for confirmation"}
	}
	switch d := r.Decisions[0].Type; d {
	case DecisionApprove, DecisionReject:
		return json.Marshal(nodes.BookingAnswer{Confirmed: d == DecisionApprove, Key: booking.Key})
	default:
		return nil, &ValueError{Field: "command.resume.decisions[0].type", Message: fmt.Sprintf("%q is not allowed: a booking is approved or rejected as it was priced", d)}
	}
}
