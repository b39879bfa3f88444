package demotools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
)

func call(t *testing.T, name, args string) (map[string]any, error) {
	t.Helper()
	raw, err := New().Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw.Full, &out); err != nil {
		t.Fatal(err)
	}
	return out, nil
}

func TestAccommodations(t *testing.T) {
	out, err := call(t, "list-accommodations", `{"location":"Lisboa","startDate":"2027-05-03","endDate":"2027-05-07","guests":3}`)
	if err != nil {
		t.Fatal(err)
	}
	if out["location"] != "Lisbon" || out["covered"] != true || out["nights"] != 4.0 {
		t.Fatalf("result header = %v", out)
	}
	list := out["accommodations"].([]any)
	if len(list) == 0 {
		t.Fatal("no place in Lisbon holds 3 guests")
	}
	for _, a := range list {
		a := a.(map[string]any)
		if a["capacity"].(float64) < 3 {
			t.Errorf("%s holds %v, fewer than 3 guests", a["name"], a["capacity"])
		}
		if a["totalPrice"] != 4*a["nightlyPrice"].(float64) {
			t.Errorf("%s: total %v is not 4 nights × %v", a["name"], a["totalPrice"], a["nightlyPrice"])
		}
	}
	again, _ := call(t, "list-accommodations", `{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","guests":3}`)
	if a, b := mustJSON(out), mustJSON(again); a != b {
		t.Fatal("the same request gave different places: the data must be deterministic")
	}
}

func TestBadInputAndUnknownPlaces(t *testing.T) {
	tests := []struct {
		name, tool, args string
		wantCode         errcode.Code
	}{
		{"reversed dates", "list-accommodations", `{"location":"Lisbon","startDate":"2027-05-07","endDate":"2027-05-03","guests":2}`, errcode.BadRequest},
		{"bad date", "list-accommodations", `{"location":"Lisbon","startDate":"May 3","endDate":"2027-05-07","guests":2}`, errcode.BadRequest},
		{"too many guests", "list-accommodations", `{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","guests":31}`, errcode.BadRequest},
		{"bad price range", "list-restaurants", `{"location":"Lisbon","priceRange":"cheap"}`, errcode.BadRequest},
		{"empty search", "searchPhotosAcrossAlbums", `{"query":"  "}`, errcode.BadRequest},
		{"unknown album", "getTripStats", `{"albumId":"nope"}`, errcode.NotFound},
		{"arguments of the wrong type", "getAlbumPhotos", `{"albumId":7}`, errcode.BadRequest},
		{"unknown tool", "drop-tables", `{}`, errcode.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := call(t, tt.tool, tt.args); errcode.Of(err) != tt.wantCode {
				t.Fatalf("error = %v, want %s", err, tt.wantCode)
			}
		})
	}
	out, err := call(t, "list-restaurants", `{"location":"Xanadu Nowhere"}`)
	if err != nil || out["covered"] != false || !strings.Contains(out["message"].(string), "Xanadu Nowhere") {
		t.Fatalf("an unknown city: %v, %v", out, err)
	}
}

func TestAlbums(t *testing.T) {
	out, err := call(t, "searchPhotosAcrossAlbums", `{"query":"aniversario da vivi"}`)
	if err != nil {
		t.Fatal(err)
	}
	photos := out["photos"].([]any)
	if len(photos) == 0 {
		t.Fatal(`"aniversario da vivi" did not find "aniversário da Vivi"`)
	}
	for _, p := range photos {
		if d := p.(map[string]any)["description"].(string); !strings.Contains(strings.ToLower(d), "vivi") {
			t.Errorf("photo %q does not match", d)
		}
	}
	albums, _ := call(t, "getAlbumByName", `{"name":"japan"}`)
	list := albums["albums"].([]any)
	if len(list) != 1 {
		t.Fatalf("getAlbumByName(japan) = %v", list)
	}
	id := list[0].(map[string]any)["id"].(string)
	stats, err := call(t, "getTripStats", `{"albumId":"`+id+`"}`)
	if err != nil || stats["totalPhotos"] != 150.0 || stats["days"] != 10.0 {
		t.Fatalf("stats = %v, %v", stats, err)
	}
	byDate, _ := call(t, "getPhotosByDate", `{"albumId":"`+id+`","date":"2025-03-27"}`)
	for _, p := range byDate["photos"].([]any) {
		if p.(map[string]any)["takenAt"] != "2025-03-27" {
			t.Errorf("photo from %v in the photos of 2025-03-27", p.(map[string]any)["takenAt"])
		}
	}
	limited, _ := call(t, "getAlbumPhotos", `{"albumId":"`+id+`","limit":500}`)
	if n := len(limited["photos"].([]any)); n != 150 {
		t.Fatalf("limit 500 is clamped to 200: got %d of 150 photos", n)
	}
}

func mustJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
