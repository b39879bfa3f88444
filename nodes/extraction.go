package nodes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/graph"
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
	raw, err := p.forcedCall(ctx, conversation(system(extractionPrompt, todayLine(today)), s),
		"extract", "Record the trip details the traveller gave.", extractSchema)
	if err != nil {
		return Update{}, err
	}
	var args extractArgs
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		return Update{}, fmt.Errorf("reading the extract call's arguments %q: %w", raw, err)
	}
	lang := args.Language
	if lang != "en" && lang != "pt" {
		lang = orDefault(s.Language, "en")
	}
	u := Update{Timestamp: p.stamp(), Intent: args.Intent, Language: lang}
	if args.Intent == IntentPhotos || args.Intent == IntentOther {
		return u, nil // answered in callTools, with no destination needed
	}
	if strings.TrimSpace(args.Location) == "" {
		u.Messages = []Message{{ID: newID(), Type: AI, Content: reply(lang, "askLocation")}}
		return u, nil
	}
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
		u.Messages = []Message{{ID: newID(), Type: AI, Content: question}}
		return u, nil
	}
	u.TripDetails, u.Assumed = &td, assumedFields(args)
	comp, err := tripDetailsComponent(td, u.Assumed, s)
	if err != nil {
		return Update{}, err
	}
	u.UI = []UIUpsert{{UIComponent: comp}}
	graph.Emit(ctx, "ui", comp)
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
	start, _ = parseDate(td.StartDate)
	end, _ = parseDate(td.EndDate)
	switch {
	case !end.After(start):
		return td, reply(lang, "endBeforeStart", td.EndDate, td.StartDate)
	case start.Before(today):
		return td, reply(lang, "pastDates", td.StartDate)
	case start.After(today.AddDate(0, 0, tripdata.MaxDaysAhead)):
		return td, reply(lang, "tooFarAhead", td.StartDate, tripdata.MaxDaysAhead)
	case td.Nights() > tripdata.MaxNights:
		return td, reply(lang, "tooLong", td.Nights(), td.StartDate, td.EndDate, tripdata.MaxNights)
	case td.NumberOfGuests > tripdata.MaxGuests:
		return td, reply(lang, "tooManyGuests", td.NumberOfGuests, tripdata.MaxGuests)
	}
	return td, ""
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
	return UIComponent{ID: "trip-details-" + msgID, Name: ComponentTripDetails, Props: props, MessageID: msgID}, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
