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

	"github.com/tripgraph/tripgraph/toolname"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
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

// book asks the traveller to confirm a booking before making it. The first
// time, it pauses the run (graph.Interrupt) with a booking-confirmation
// summary: place, dates, nights, guests and total. When the run resumes,
// callTools runs again from its start, and here the answer comes back: only
// a confirmation of this same booking, before its deadline, books; the
// booking's key is its idempotency key, so a repeated step books once.
func (t *turn) book(ctx context.Context, callID string, raw json.RawMessage) (string, error) {
	props, toolErr := t.bookingSummary(ctx, raw)
	props.ToolCallID = callID
	if toolErr != nil {
		return t.bookingOutcome(ctx, callID, props, toolErr), nil
	}
	ask := UIComponent{ID: callID, Name: ComponentBookingConfirmation, Props: mustJSON(props), MessageID: t.msgID}
	answer, err := graph.Interrupt[BookingAnswer](ctx, ask)
	if err != nil {
		return "", fmt.Errorf("confirming a booking: %w", err)
	}
	props.Status = t.verdict(ctx, answer, &props)
	if props.Status != BookingPending {
		return t.bookingOutcome(ctx, callID, props, nil), nil
	}
	var args map[string]any
	json.Unmarshal(raw, &args) // raw was decoded once already
	args["idempotencyKey"] = answer.Key
	res, toolErr := t.run(ctx, toolBook, mustJSON(args))
	if toolErr != nil {
		props.Status = BookingFailed
		return t.bookingOutcome(ctx, callID, props, toolErr), nil
	}
	var booked struct {
		Booking struct {
			ID string `json:"id"`
		} `json:"booking"`
	}
	json.Unmarshal(res.Full, &booked)
	props.Status, props.BookingID, props.Key = BookingBooked, booked.Booking.ID, ""
	t.show(ctx, UIComponent{ID: callID, Name: ComponentBookingConfirmation, Props: mustJSON(props), MessageID: t.msgID})
	return string(res.ModelView()), nil
}

// requestedBooking handles the state's booking request: the same
// confirmation and booking as a model's call, without asking the model,
// answered with a reply of the planner's own. The call's id is derived
// from the request and the conversation's length, so that it is the same
// when callTools runs again after the traveller's answer, and differs for
// the same stay asked for again later.
func (t *turn) requestedBooking(ctx context.Context, lang string) (Update, error) {
	r := *t.state.BookingRequest
	args := mustJSON(bookArgs{ID: r.AccommodationID, StartDate: r.StartDate, EndDate: r.EndDate, Guests: r.Guests})
	sum := sha256.Sum256(append(args, strconv.Itoa(len(t.state.Messages))...))
	callID := "book-" + hex.EncodeToString(sum[:8])
	if _, err := t.book(ctx, callID, args); err != nil {
		return Update{}, err
	}
	status := BookingFailed
	if len(t.ui) > 0 {
		var shown BookingConfirmationProps
		json.Unmarshal(t.ui[len(t.ui)-1].Props, &shown) // props we encoded
		status = BookingStatusOf(shown.Status)          // final: book has had its answer
	}
	text := reply(lang, "booking."+status)
	graph.EmitToken(ctx, t.msgID, text)
	return Update{
		Messages:            []Message{{ID: t.msgID, Type: AI, Content: text}},
		UI:                  t.ui,
		Timestamp:           t.stamp(),
		ClearBookingRequest: true,
	}, nil
}

// bookingSummary looks the place up and works out the stay. Bad arguments,
// a party larger than the place holds and a failed lookup come back as a
// ToolError, before the traveller is asked to confirm.
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
	res, toolErr := t.run(ctx, toolGetAccommodation, mustJSON(map[string]string{"id": args.ID}))
	if toolErr != nil {
		return props, toolErr
	}
	var place struct {
		Name         string  `json:"name"`
		City         string  `json:"city"`
		NightlyPrice float64 `json:"nightlyPrice"`
		Currency     string  `json:"currency"`
		Capacity     int     `json:"capacity"`
	}
	if err := json.Unmarshal(res.Full, &place); err != nil {
		return props, toolError(ctx, toolGetAccommodation, fmt.Errorf("reading the accommodation %s: %w", args.ID, err))
	}
	if place.Capacity > 0 && args.Guests > place.Capacity { // refused now, not after the traveller confirms
		return props, &ToolError{Code: string(errcode.BadRequest),
			Message: fmt.Sprintf("%s holds %d guests, not %d: choose a larger place, or book for fewer guests", place.Name, place.Capacity, args.Guests)}
	}
	props.AccommodationID, props.Name, props.City = args.ID, place.Name, place.City
	props.StartDate, props.EndDate, props.Nights, props.Guests = args.StartDate, args.EndDate, nights, args.Guests
	props.NightlyPrice, props.Currency = place.NightlyPrice, place.Currency
	props.Total = math.Round(float64(nights)*place.NightlyPrice*100) / 100
	deadline := t.Now().Add(ConfirmationTTL).UTC().Truncate(time.Second)
	props.ExpiresAt = deadline.Format(time.RFC3339)
	props.Key = bookingKey(ctx, props, deadline)
	return props, nil
}

// verdict judges the traveller's answer: BookingPending means book now. An
// answer carrying this booking's key puts the key's deadline back in props.
func (t *turn) verdict(ctx context.Context, a BookingAnswer, props *BookingConfirmationProps) string {
	if !a.Confirmed {
		return BookingDeclined
	}
	unix, _, ok := strings.Cut(a.Key, ".")
	secs, err := strconv.ParseInt(unix, 10, 64)
	if !ok || err != nil {
		return BookingChanged
	}
	deadline := time.Unix(secs, 0).UTC()
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
// "<deadline in Unix seconds>.<hash of the thread, the stay and the price>".
func bookingKey(ctx context.Context, p BookingConfirmationProps, deadline time.Time) string {
	info, _ := graph.Info(ctx)
	sum := sha256.Sum256([]byte(strings.Join([]string{info.ThreadID, p.AccommodationID, p.StartDate, p.EndDate,
		strconv.Itoa(p.Guests), strconv.FormatFloat(p.Total, 'f', 2, 64), p.Currency, strconv.FormatInt(deadline.Unix(), 10)}, "\x00")))
	return strconv.FormatInt(deadline.Unix(), 10) + "." + hex.EncodeToString(sum[:16])
}

// bookingOutcome shows a booking that was not made and returns what to tell
// the model.
func (t *turn) bookingOutcome(ctx context.Context, callID string, props BookingConfirmationProps, toolErr *ToolError) string {
	props.Error = toolErr
	if toolErr != nil && props.Status == BookingPending {
		props.Status = BookingFailed
	}
	props.Key = "" // spent
	t.show(ctx, UIComponent{ID: callID, Name: ComponentBookingConfirmation, Props: mustJSON(props), MessageID: t.msgID})
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
