package nodes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/tripdata"
)

// Date defaults, as in the seed: a trip with no dates starts in four weeks
// and lasts one; a trip with one date lasts a week.
const (
	defaultLeadDays = 28
	defaultTripDays = 7
	defaultGuests   = 2
)

// extraction extracts the trip details from the whole conversation. With no
// destination, or with details that cannot be right, it asks the traveller
// one question and the run ends.
func (p *planner) extraction(ctx context.Context, s State) (Update, error) {
	today := p.today()
	prof := recall(ctx)
	raw, err := p.forcedCall(ctx, conversation(system(extractionPrompt, todayLine(today), profileLines(prof)), s),
		"extract", "Record the trip details the traveller gave.", extractSchema)
	if err != nil {
		return Update{}, err
	}
	var args extractArgs
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		return Update{}, fmt.Errorf("reading the extract call's arguments %q: %w", raw, err)
	}
	lang := args.Language
	if !locale.Known(lang) {
		lang = orDefault(s.Language, locale.Default)
	}
	u := Update{Timestamp: p.stamp(), Intent: args.Intent, Language: lang}
	if args.Intent == IntentForget {
		return p.forget(ctx, u, lang)
	}
	if !s.Forgotten {
		remember(ctx, stated(args, lang))
	}
	if args.Intent == IntentPhotos || args.Intent == IntentOther {
		return u, nil // answered in callTools, with no destination needed
	}
	if strings.TrimSpace(args.Location) == "" {
		u.Messages = []Message{{ID: messageID(ctx), Type: AI, Content: reply(lang, "askLocation")}}
		return u, nil
	}
	recalled := recallDefaults(&args, prof)
	assumed := assumedFields(args)
	td, question := resolveTrip(args, today, lang)
	if question == "" && validate.Struct(td) != nil {
		question = reply(lang, "badDetails")
	}
	if question == "" && len(args.Unsure) > 0 {
		// A guess (a misspelt place, a party counted two ways) is asked
		// about before any search; the answer settles it.
		question = confirmQuestion(args, td, lang)
	}
	if question != "" {
		u.Messages = []Message{{ID: messageID(ctx), Type: AI, Content: question}}
		return u, nil
	}
	u.TripDetails, u.Assumed, u.Recalled = &td, assumed, recalled
	comp, err := tripDetailsComponent(td, u.Assumed, s)
	if err != nil {
		return Update{}, err
	}
	u.UI = []UIUpsert{{UIComponent: comp}}
	graph.Emit(ctx, "ui", comp)
	return u, nil
}

// forget deletes what is remembered of the traveller and says so; the
// conversation is not remembered from then on.
func (p *planner) forget(ctx context.Context, u Update, lang string) (Update, error) {
	if m := memoryOf(ctx); m != nil {
		if err := m.Forget(ctx); err != nil {
			return Update{}, fmt.Errorf("forgetting the traveller's profile: %w", err)
		}
	}
	u.Forgotten = true
	u.Messages = []Message{{ID: messageID(ctx), Type: AI, Content: reply(lang, "forgot")}}
	return u, nil
}

// resolveTrip fills in default dates and guests and checks the result. It
// returns a clarifying question instead of guessing when the dates are
// reversed or past, or there are too many guests.
func resolveTrip(a extractArgs, today time.Time, lang string) (TripDetails, string) {
	start, startOK := parseDate(a.StartDate)
	end, endOK := parseDate(a.EndDate)
	length := defaultTripDays
	if a.Nights > 0 {
		length = a.Nights
	}
	switch {
	case !startOK && !endOK && a.Nights > 0:
		start = today.AddDate(0, 0, defaultLeadDays)
		end = start.AddDate(0, 0, length)
	case !startOK && !endOK:
		start = today.AddDate(0, 0, defaultLeadDays)
		end = today.AddDate(0, 0, defaultLeadDays+defaultTripDays)
	case startOK && (!endOK || a.Nights > 0):
		end = start.AddDate(0, 0, length)
	case !startOK:
		start = end.AddDate(0, 0, -length)
	}
	td := TripDetails{
		Location:       a.Location,
		Country:        a.Country,
		StartDate:      start.Format(time.DateOnly),
		EndDate:        end.Format(time.DateOnly),
		NumberOfGuests: a.NumberOfGuests,
	}
	if td.NumberOfGuests <= 0 {
		td.NumberOfGuests = defaultGuests
	}
	resolveLegs(a, &td)
	switch td.Fault(today) {
	case EndBeforeStart:
		return td, reply(lang, string(EndBeforeStart), td.EndDate, td.StartDate)
	case PastDates:
		return td, reply(lang, string(PastDates), td.StartDate)
	case TooFarAhead:
		return td, reply(lang, string(TooFarAhead), td.StartDate, tripdata.MaxDaysAhead)
	case TooLong:
		return td, reply(lang, string(TooLong), td.Nights(), td.StartDate, td.EndDate, tripdata.MaxNights)
	case TooManyGuests:
		return td, reply(lang, string(TooManyGuests), td.NumberOfGuests, tripdata.MaxGuests)
	}
	return td, ""
}

// StayFault is why the planner would not plan a stay; its value names the
// reply that says so.
type StayFault string

// The stays the planner refuses.
const (
	EndBeforeStart StayFault = "endBeforeStart" // it ends on or before its first day
	PastDates      StayFault = "pastDates"      // it starts before today
	TooFarAhead    StayFault = "tooFarAhead"    // it starts more than tripdata.MaxDaysAhead days ahead
	TooLong        StayFault = "tooLong"        // it lasts more than tripdata.MaxNights nights
	TooManyGuests  StayFault = "tooManyGuests"  // it is for more than tripdata.MaxGuests guests
)

// Field is the trip details' member at fault, by its JSON name.
func (f StayFault) Field() string {
	switch f {
	case EndBeforeStart, TooLong:
		return "endDate"
	case PastDates, TooFarAhead:
		return "startDate"
	case TooManyGuests:
		return "numberOfGuests"
	}
	return ""
}

// Fault is what is wrong with the stay as of today (a UTC midnight), ""
// when the planner would plan it. The API's and the browser's trip edits
// are held to the same rule.
func (td TripDetails) Fault(today time.Time) StayFault {
	start, _ := parseDate(td.StartDate)
	switch {
	case td.Nights() < 1:
		return EndBeforeStart
	case start.Before(today):
		return PastDates
	case start.After(today.AddDate(0, 0, tripdata.MaxDaysAhead)):
		return TooFarAhead
	case td.Nights() > tripdata.MaxNights:
		return TooLong
	case td.NumberOfGuests > tripdata.MaxGuests:
		return TooManyGuests
	}
	return ""
}

func parseDate(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	return t, err == nil
}

// Nights is the length of a stay.
func (td TripDetails) Nights() int {
	start, ok1 := parseDate(td.StartDate)
	end, ok2 := parseDate(td.EndDate)
	if !ok1 || !ok2 {
		return 0
	}
	return int(end.Sub(start).Hours() / 24)
}

// tripDetailsComponent shows what was understood, attached to the message
// that asked for the trip.
func tripDetailsComponent(td TripDetails, assumed []string, s State) (UIComponent, error) {
	props, err := json.Marshal(TripDetailsProps{TripDetails: td, Nights: td.Nights(), Assumed: assumed})
	if err != nil {
		return UIComponent{}, fmt.Errorf("encoding trip details: %w", err)
	}
	msgID := ""
	for i := len(s.Messages) - 1; i >= 0 && msgID == ""; i-- {
		if s.Messages[i].Type == Human {
			msgID = s.Messages[i].ID
		}
	}
	return UIComponent{ID: "trip-details-" + msgID, Name: card.TripDetails, Props: props, MessageID: msgID}, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
