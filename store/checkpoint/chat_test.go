package checkpoint

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// This file holds a trip-planner-like state for the checkpointer's tests and
// benchmarks: messages and UI records that only grow, a timestamp that
// changes at every step, and trip details that are replaced.

type chatMessage struct {
	ID      string `json:"id"`
	Role    string `json:"role"`
	Content string `json:"content"`
}

type uiRecord struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Props     json.RawMessage `json:"props"`
	MessageID string          `json:"messageId"`
}

type tripDetails struct {
	Location       string `json:"location"`
	StartDate      string `json:"startDate"`
	EndDate        string `json:"endDate"`
	NumberOfGuests int    `json:"numberOfGuests"`
}

type chatState struct {
	Messages    []chatMessage `json:"messages"`
	UI          []uiRecord    `json:"ui"`
	Timestamp   time.Time     `json:"timestamp"`
	TripDetails *tripDetails  `json:"tripDetails,omitempty"`
}

type chatUpdate struct {
	Messages    []chatMessage `json:"messages,omitempty"`
	UI          []uiRecord    `json:"ui,omitempty"`
	Timestamp   *time.Time    `json:"timestamp,omitempty"`
	TripDetails *tripDetails  `json:"tripDetails,omitempty"`
	Clear       bool          `json:"clear,omitempty"` // drop all messages first
}

// reduceChat is a pure reducer: it never writes into the slices it is given.
func reduceChat(s chatState, u chatUpdate) chatState {
	if u.Clear {
		s.Messages = nil
	}
	s.Messages = append(slices.Clip(s.Messages), u.Messages...)
	s.UI = append(slices.Clip(s.UI), u.UI...)
	if u.Timestamp != nil {
		s.Timestamp = *u.Timestamp
	}
	if u.TripDetails != nil {
		s.TripDetails = u.TripDetails
	}
	return s
}

var cities = []string{"Lisboa", "Porto", "Paris", "Kyoto", "São Paulo", "Reykjavík", "Nairobi", "Montréal"}

// chatTurn returns the updates of one conversation turn: the human message
// (the run's input), then two or three node steps.
func chatTurn(r *rand.Rand, turn int, now time.Time) []chatUpdate {
	ts := func(i int) *time.Time { t := now.Add(time.Duration(turn*10+i) * time.Second); return &t }
	city := cities[r.IntN(len(cities))]
	human := chatMessage{ID: fmt.Sprintf("h%d", turn), Role: "human",
		Content: fmt.Sprintf("I'd like a place to stay in %s for %d guests from the %dth, near the old town, with breakfast if possible.", city, 1+r.IntN(5), 1+r.IntN(28))}
	ups := []chatUpdate{{Messages: []chatMessage{human}, Timestamp: ts(0)}}
	ups = append(ups, chatUpdate{Timestamp: ts(1), TripDetails: &tripDetails{
		Location: city, StartDate: "2026-07-01", EndDate: "2026-07-0" + fmt.Sprint(2+r.IntN(7)), NumberOfGuests: 1 + r.IntN(5)}})
	ai := chatMessage{ID: fmt.Sprintf("a%d", turn), Role: "ai",
		Content: fmt.Sprintf("Here are some accommodations in %s that match your dates. %s", city, strings.Repeat("They are close to the centre and well rated. ", 1+r.IntN(4)))}
	ups = append(ups, chatUpdate{Messages: []chatMessage{ai}, UI: []uiRecord{{
		ID: fmt.Sprintf("ui%d", turn), Name: "accommodations-list", Props: accommodationProps(r, city), MessageID: ai.ID}}, Timestamp: ts(2)})
	if r.IntN(2) == 0 {
		ups = append(ups, chatUpdate{Timestamp: ts(3)})
	}
	return ups
}

func accommodationProps(r *rand.Rand, city string) json.RawMessage {
	type acc struct {
		ID     int     `json:"id"`
		Name   string  `json:"name"`
		Price  int     `json:"price"`
		Rating float64 `json:"rating"`
		City   string  `json:"city"`
		Image  string  `json:"image"`
	}
	list := make([]acc, 3+r.IntN(3))
	for i := range list {
		id := r.IntN(100000)
		list[i] = acc{ID: id, Name: fmt.Sprintf("Hotel %s %d", city, id), Price: 50 + r.IntN(400),
			Rating: float64(30+r.IntN(20)) / 10, City: city, Image: fmt.Sprintf("https://img.example.com/%d.jpg", id)}
	}
	b, _ := json.Marshal(map[string]any{"accommodations": list, "currency": "EUR"})
	return b
}

// mustJSON encodes v or fails the test.
func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
