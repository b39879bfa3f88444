package nodes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/toolname"
)

// Tools the booking confirmation uses.
const (
	toolBook             = toolname.BookAccommodation
	toolGetAccommodation = toolname.GetAccommodation
)

// ConfirmationTTL is how long the traveller has to confirm a booking.
const ConfirmationTTL = 15 * time.Minute

// bookArgs are the arguments of book-accommodation that the summary shows.
type bookArgs struct {
	ID        string `json:"id"`
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
	Guests    int    `json:"guests"`
}

// confirmationCard names a booking-confirmation card: its component id and the
// message it is shown with.
type confirmationCard struct {
	ID        string
	MessageID string
}

// book asks the traveller to confirm a booking before making it. The first
// time, it pauses the run (graph.Interrupt) with a booking-confirmation
// summary: place, dates, nights, guests and total, with a warning when the
// stay was booked in this conversation already or is taken. When the run
// resumes, callTools runs again from its start, and here the answer comes
// back: only a confirmation of this same booking, before its deadline,
// books; the booking's key is its idempotency key, so a repeated step
// books once.
func (t *turn) book(ctx context.Context, c confirmationCard, raw json.RawMessage) (string, error) {
	props, toolErr := t.bookingSummary(ctx, raw)
	props.ToolCallID = c.ID
	if toolErr != nil {
		return t.bookingOutcome(ctx, c, props, toolErr), nil
	}
	ask := UIComponent{ID: c.ID, Name: card.BookingConfirmation, Props: mustJSON(props), MessageID: c.MessageID}
	answer, err := graph.Interrupt[BookingAnswer](ctx, ask)
	if err != nil {
		return "", fmt.Errorf("confirming a booking: %w", err)
	}
	props.Status = t.verdict(ctx, answer, &props)
	if props.Status != BookingPending {
		return t.bookingOutcome(ctx, c, props, nil), nil
	}
	var args map[string]any
	json.Unmarshal(raw, &args) // raw was decoded once already
	args["idempotencyKey"] = answer.Key
	res, toolErr := t.run(ctx, toolBook, mustJSON(args))
	if toolErr != nil && ctx.Err() != nil {
		// The run stopped while the catalog was booking: whether it booked
		// is not known here. The step is not saved, and the run's next
		// attempt asks again with the same key, which books once.
		return "", fmt.Errorf("booking: %w", context.Cause(ctx))
	}
	if toolErr != nil {
		props.Status = BookingFailed
		return t.bookingOutcome(ctx, c, props, toolErr), nil
	}
	var booked struct {
		Booking struct {
			ID        string `json:"id"`
			Reference string `json:"reference"`
		} `json:"booking"`
	}
	json.Unmarshal(res.Full, &booked)
	props.Status, props.BookingID, props.Reference, props.Key = BookingBooked, booked.Booking.ID, booked.Booking.Reference, ""
	props.Warning, props.Previous = "", nil
	t.show(ctx, UIComponent{ID: c.ID, Name: card.BookingConfirmation, Props: mustJSON(props), MessageID: c.MessageID})
	return string(res.ModelView()), nil
}

// requestedBooking handles the state's booking request: the same
// confirmation and booking as a model's call, without asking the model,
// answered with a reply of the planner's own. The card is shown with the
// message the request followed (the list its Book button was in), and
// named after the request (bookingCardID), so that it is the same card
// when callTools runs again after the traveller's answer, or when the
// request is set aside. A declined booking gets no reply: its card says
// so, once.
func (t *turn) requestedBooking(ctx context.Context, lang string) (Update, error) {
	r := *t.state.BookingRequest
	c := confirmationCard{ID: bookingCardID(r), MessageID: r.After}
	if _, err := t.book(ctx, c, requestArgs(r)); err != nil {
		return Update{}, err
	}
	status := BookingFailed
	if len(t.ui) > 0 {
		var shown BookingConfirmationProps
		json.Unmarshal(t.ui[len(t.ui)-1].Props, &shown) // props we encoded
		status = BookingStatusOf(shown.Status)          // final: book has had its answer
	}
	u := Update{UI: t.ui, Timestamp: t.stamp(), ClearBookingRequest: true}
	if status != BookingDeclined {
		text := reply(lang, "booking."+status)
		graph.EmitToken(ctx, t.msgID, text)
		u.Messages = []Message{{ID: t.msgID, Type: AI, Content: text}}
	}
	return u, nil
}

// requestArgs are a booking request as book-accommodation's arguments.
func requestArgs(r BookingRequest) json.RawMessage {
	return mustJSON(bookArgs{ID: r.AccommodationID, StartDate: r.StartDate, EndDate: r.EndDate, Guests: r.Guests})
}

// bookingCardID names the confirmation card of a booking request, from the
// stay and the message the request followed: the same when callTools runs
// again after the answer, different for the same stay asked for again
// after the conversation has moved on.
func bookingCardID(r BookingRequest) string {
	sum := sha256.Sum256(append(requestArgs(r), r.After...))
	return "book-" + hex.EncodeToString(sum[:8])
}

// setAside shows each booking request the traveller moved on from as not
// made (BookingSetAside), in place of its confirmation card, and returns
// the cards for the state. The stay is looked up again to show what it
// was; a failed lookup shows the request's own dates and guests.
func (t *turn) setAside(ctx context.Context) []UIUpsert {
	var out []UIUpsert
	for _, r := range t.state.SetAside {
		c := confirmationCard{ID: bookingCardID(r), MessageID: r.After}
		props, _ := t.bookingSummary(ctx, requestArgs(r))
		props.ToolCallID, props.Status, props.Key, props.ExpiresAt = c.ID, BookingSetAside, "", ""
		props.Warning, props.Previous = "", nil
		if props.StartDate == "" {
			props.AccommodationID, props.StartDate, props.EndDate, props.Guests = r.AccommodationID, r.StartDate, r.EndDate, r.Guests
		}
		comp := UIComponent{ID: c.ID, Name: card.BookingConfirmation, Props: mustJSON(props), MessageID: c.MessageID}
		graph.Emit(ctx, "ui", comp)
		out = append(out, UIUpsert{UIComponent: comp})
	}
	return out
}

// settling wraps a node: before it runs, the booking requests the
// traveller moved on from are shown as not made, and its update carries
// them. Whichever node a turn starts with shows them.
func (p *planner) settling(node func(context.Context, State) (Update, error)) func(context.Context, State) (Update, error) {
	return func(ctx context.Context, s State) (Update, error) {
		if len(s.SetAside) == 0 {
			return node(ctx, s)
		}
		shown := p.turn(ctx, s).setAside(ctx)
		s.SetAside = nil
		u, err := node(ctx, s)
		if err != nil {
			return u, err
		}
		u.UI = append(shown, u.UI...)
		u.ClearSetAside = true
		return u, nil
	}
}

// bookingSummary looks the place up, for the dates, and works out the
// stay. Bad arguments, a party larger than the place holds and a failed
// lookup come back as a ToolError, before the traveller is asked to
// confirm. A stay
// this conversation has booked already, or one the catalog says is taken
// for some of the nights, is warned about (Warning, Previous).
func (t *turn) bookingSummary(ctx context.Context, raw json.RawMessage) (BookingConfirmationProps, *ToolError) {
	props := BookingConfirmationProps{ToolProps: ToolProps{Tool: toolBook, TripDetails: t.state.TripDetails}, Status: BookingPending}
	var args bookArgs
	if err := json.Unmarshal(raw, &args); err != nil || args.ID == "" {
		return props, &ToolError{Code: string(errcode.BadRequest), Message: "a booking needs the accommodation's id, the dates and the guests"}
	}
	start, errStart := time.Parse(time.DateOnly, args.StartDate)
	end, errEnd := time.Parse(time.DateOnly, args.EndDate)
	nights := int(end.Sub(start).Hours() / 24)
	if errStart != nil || errEnd != nil || nights < 1 || args.Guests < 1 {
		return props, &ToolError{Code: string(errcode.BadRequest), Message: "a booking needs a check-in before the check-out (YYYY-MM-DD) and at least one guest"}
	}
	res, toolErr := t.run(ctx, toolGetAccommodation, mustJSON(map[string]string{"id": args.ID, "startDate": args.StartDate, "endDate": args.EndDate}))
	if toolErr != nil {
		return props, toolErr
	}
	var place struct {
		Name         string  `json:"name"`
		City         string  `json:"city"`
		Kind         string  `json:"kind"`
		NightlyPrice float64 `json:"nightlyPrice"`
		Currency     string  `json:"currency"`
		Capacity     int     `json:"capacity"`
		Availability string  `json:"availability"`
	}
	if err := json.Unmarshal(res.Full, &place); err != nil {
		return props, toolError(ctx, toolGetAccommodation, fmt.Errorf("reading the accommodation %s: %w", args.ID, err))
	}
	if place.Capacity > 0 && args.Guests > place.Capacity { // refused now, not after the traveller confirms
		return props, &ToolError{Code: string(errcode.BadRequest),
			Message: fmt.Sprintf("%s holds %d guests, not %d: choose a larger place, or book for fewer guests", place.Name, place.Capacity, args.Guests)}
	}
	props.AccommodationID, props.Name, props.City, props.Kind = args.ID, place.Name, place.City, place.Kind
	props.StartDate, props.EndDate, props.Nights, props.Guests = args.StartDate, args.EndDate, nights, args.Guests
	props.NightlyPrice, props.Currency = place.NightlyPrice, place.Currency
	props.Total = math.Round(float64(nights)*place.NightlyPrice*100) / 100
	props.Previous = bookedBefore(t.state, args.ID)
	switch {
	case props.Previous != nil && overlaps(*props.Previous, args.StartDate, args.EndDate):
		props.Warning = WarnBookedHere
	case place.Availability == availabilityBooked:
		props.Warning = WarnTaken
	case props.Previous != nil:
		props.Warning = WarnBookedBefore
	}
	deadline := t.Now().Add(ConfirmationTTL).UTC().Truncate(time.Millisecond)
	props.ExpiresAt = deadline.Format(time.RFC3339)
	props.Key = bookingKey(ctx, props, deadline)
	return props, nil
}

// availabilityBooked is get-accommodation's word for a stay another
// booking holds some of the nights of.
const availabilityBooked = "booked"

// bookedBefore is the newest booking of the accommodation this
// conversation made, as its card shows it; nil when there is none.
func bookedBefore(s State, accommodationID string) *PreviousBooking {
	for i := len(s.UI) - 1; i >= 0; i-- {
		c := s.UI[i]
		if c.Name != card.BookingConfirmation {
			continue
		}
		var p BookingConfirmationProps
		if json.Unmarshal(c.Props, &p) == nil && p.Status == BookingBooked && p.AccommodationID == accommodationID {
			return &PreviousBooking{Reference: orDefault(p.Reference, p.BookingID), StartDate: p.StartDate, EndDate: p.EndDate}
		}
	}
	return nil
}

// overlaps reports whether a booking shares a night with the stay from
// start to end (ISO dates compare as strings).
func overlaps(b PreviousBooking, start, end string) bool {
	return b.StartDate < end && start < b.EndDate
}

// verdict judges the traveller's answer: BookingPending means book now. An
// answer carrying this booking's key puts the key's deadline back in props.
func (t *turn) verdict(ctx context.Context, a BookingAnswer, props *BookingConfirmationProps) string {
	if !a.Confirmed {
		return BookingDeclined
	}
	unix, _, ok := strings.Cut(a.Key, ".")
	ms, err := strconv.ParseInt(unix, 10, 64)
	if !ok || err != nil {
		return BookingChanged
	}
	deadline := time.UnixMilli(ms).UTC()
	if bookingKey(ctx, *props, deadline) != a.Key {
		return BookingChanged
	}
	props.ExpiresAt = deadline.Format(time.RFC3339)
	if !t.Now().Before(deadline) {
		return BookingExpired
	}
	return BookingPending
}

// bookingKey names one booking of one thread with its deadline:
// "<deadline in Unix milliseconds>.<hash of the thread, the stay and the
// price>". Milliseconds, so that the same stay confirmed twice in one
// thread within a second (a fast client) gets two keys, not the first
// booking again.
func bookingKey(ctx context.Context, p BookingConfirmationProps, deadline time.Time) string {
	info, _ := graph.Info(ctx)
	sum := sha256.Sum256([]byte(strings.Join([]string{info.ThreadID, p.AccommodationID, p.StartDate, p.EndDate,
		strconv.Itoa(p.Guests), strconv.FormatFloat(p.Total, 'f', 2, 64), p.Currency, strconv.FormatInt(deadline.UnixMilli(), 10)}, "\x00")))
	return strconv.FormatInt(deadline.UnixMilli(), 10) + "." + hex.EncodeToString(sum[:16])
}

// bookingOutcome shows a booking that was not made and returns what to tell
// the model. A booking the catalog refuses because the stay is taken
// (CONFLICT) is BookingUnavailable, said in the card's own words rather
// than the tool's, which name internal ids.
func (t *turn) bookingOutcome(ctx context.Context, c confirmationCard, props BookingConfirmationProps, toolErr *ToolError) string {
	props.Error = toolErr
	if toolErr != nil && props.Status == BookingPending {
		props.Status = BookingFailed
	}
	if toolErr != nil && toolErr.Code == string(errcode.Conflict) && props.Status == BookingFailed {
		props.Status, props.Error = BookingUnavailable, nil
	}
	props.Key, props.Warning = "", "" // spent
	t.show(ctx, UIComponent{ID: c.ID, Name: card.BookingConfirmation, Props: mustJSON(props), MessageID: c.MessageID})
	told := map[string]any{"booked": false, "status": props.Status}
	if toolErr != nil {
		told["error"] = toolErr
	}
	return string(mustJSON(told))
}

// mustJSON encodes values that always encode: maps and structs of plain
// fields.
func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encoding %T: %v", v, err))
	}
	return data
}
