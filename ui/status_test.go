package ui_test

import (
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/ui"
)

func TestToolStatusLine(t *testing.T) {
	three, one := 3, 1
	tests := []struct {
		name   string
		lang   string
		s      ui.ToolStatus
		want   []string
		absent []string
	}{
		{"stays, calling", "en", ui.ToolStatus{MessageID: "a1", Tool: "list-accommodations", Card: card.Accommodations, Place: "Lisbon"},
			[]string{`<p id="msg-a1-status" class="tool-status" role="status">`, "Searching stays in Lisbon…"}, []string{"done"}},
		{"restaurants, calling, Portuguese", "pt", ui.ToolStatus{MessageID: "a1", Tool: "list-restaurants", Card: card.Restaurants, Place: "Porto"},
			[]string{"Buscando restaurantes (Porto)…"}, []string{"em Porto"}},
		{"stays, calling, Portuguese names the city in Portuguese", "pt", ui.ToolStatus{MessageID: "a1", Tool: "list-accommodations", Card: card.Accommodations, Place: "Lisbon"},
			[]string{"Buscando hospedagem (Lisboa)…"}, []string{"Lisbon"}},
		{"photos, calling", "en", ui.ToolStatus{MessageID: "a1", Tool: "searchPhotosAcrossAlbums", Card: card.Photos}, []string{"Looking through your photos…"}, nil},
		{"booking, calling", "en", ui.ToolStatus{MessageID: "a1", Tool: "book-accommodation", Card: card.BookingConfirmation}, []string{"Booking the stay…"}, []string{"book-accommodation"}},
		{"stays, no place yet", "en", ui.ToolStatus{MessageID: "a1", Tool: "list-accommodations", Card: card.Accommodations}, []string{"Searching stays…"}, nil},
		{"a user's own tool", "en", ui.ToolStatus{MessageID: "a1", Tool: "crm_<search>"}, []string{"Calling crm_&lt;search&gt;…"}, []string{"<search>"}},
		{"stays, complete", "en", ui.ToolStatus{MessageID: "a1", Tool: "list-accommodations", Card: card.Accommodations, Done: true, Items: &three},
			[]string{`class="tool-status done"`, "Found 3 places to stay"}, nil},
		{"photos, complete, Portuguese", "pt", ui.ToolStatus{MessageID: "a1", Tool: "getAlbumPhotos", Card: card.Photos, Done: true, Items: &one},
			[]string{"Encontrado: 1 foto"}, nil},
		{"stats, complete", "en", ui.ToolStatus{MessageID: "a1", Tool: "getTripStats", Card: card.TripStats, Done: true, Items: &one}, []string{">Done<"}, nil},
		{"failed", "en", ui.ToolStatus{MessageID: "a1", Tool: "list-restaurants", Card: card.Restaurants, Done: true, ErrorCode: "UNAVAILABLE"},
			[]string{`class="tool-status done failed"`, "The search failed"}, []string{"UNAVAILABLE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkHTML(t, render(t, tt.lang, ui.ToolStatusLine(tt.s)), tt.want, tt.absent)
		})
	}
}

func TestToolStatusOutOfBand(t *testing.T) {
	s := ui.ToolStatus{MessageID: "a1", Tool: "list-accommodations", Card: card.Accommodations, Place: "Lisbon"}
	checkHTML(t, render(t, "en", ui.OutOfBand(ui.ToolStatusLine(s))), []string{`id="msg-a1-status"`, `hx-swap-oob="true"`}, nil)
}
