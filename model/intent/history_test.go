package intent

import "testing"

// Questions about past trips, by what they ask.
func TestHistoryKinds(t *testing.T) {
	tests := []struct {
		text string
		want Ask
	}{
		{"when was that Lisbon trip again?", AskStats},
		{"was the Peru trip 10 days or 2 weeks?", AskStats},
		{"em que ano eu fui pra Roma?", AskStats},
		{"which year did I go to Chile?", AskStats},
		{"what did we do in Quito? show me", AskPhotos},
		{"o que fizemos em Lima?", AskPhotos},
		{"remind me everywhere I've been", AskTrips},
		{"I want to go to Rome again", NoAsk},
		{"what dates was I in Rome?", AskStats},
	}
	for _, tt := range tests {
		if got := History(tt.text); got != tt.want {
			t.Errorf("History(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// Showing a trip is showing its album.
func TestShowsTrip(t *testing.T) {
	tests := []struct {
		text string
		want Intent
	}{
		{"me mostra a viagem do Porto", Photos},
		{"show me the Lima trip", Photos},
		{"show me hotels for my trip to Lima", Accommodations},
	}
	for _, tt := range tests {
		if got := Detect(tt.text); got != tt.want {
			t.Errorf("Detect(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestSplitSubject(t *testing.T) {
	tests := []struct{ term, who, where string }{
		{"vivi no farol da barra", "vivi", "farol da barra"},
		{"Leo at the lighthouse", "Leo", "lighthouse"},
		{"aniversário da Vivi", "", ""},
		{"beach", "", ""},
	}
	for _, tt := range tests {
		who, where, _ := SplitSubject(tt.term)
		if who != tt.who || where != tt.where {
			t.Errorf("SplitSubject(%q) = %q, %q, want %q, %q", tt.term, who, where, tt.who, tt.where)
		}
	}
}
