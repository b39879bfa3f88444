package catalog

import (
	"context"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/tripdata"
)

func TestBook(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	c := addTestCatalog(t, s)
	ana, _ := s.EnsureUser(ctx, "book-ana")
	bob, _ := s.EnsureUser(ctx, "book-bob")
	place := c.Accommodations[1].ID
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	booking := func(user, key, start, end string) tripdata.Booking {
		return tripdata.Booking{UserID: user, AccommodationID: place, StartDate: day(start), EndDate: day(end),
			Guests: 2, NightlyPrice: 80.5, TotalPrice: 161, Currency: "EUR", IdempotencyKey: key}
	}

	first, created, err := s.Book(ctx, booking(ana.ID, "k1", "2025-06-01", "2025-06-03"))
	if err != nil || !created || first.ID == "" {
		t.Fatalf("first booking = %+v, %v, %v", first, created, err)
	}
	for _, tc := range []struct {
		name    string
		b       tripdata.Booking
		code    errcode.Code // "" for success
		created bool
		sameID  bool
	}{
		{"same key returns the first booking", booking(ana.ID, "k1", "2025-09-01", "2025-09-02"), "", false, true},
		{"overlap by another user", booking(bob.ID, "k1", "2025-06-02", "2025-06-05"), errcode.Conflict, false, false},
		{"overlap by the same user", booking(ana.ID, "k2", "2025-05-30", "2025-06-02"), errcode.Conflict, false, false},
		{"checkout day is free", booking(bob.ID, "k3", "2025-06-03", "2025-06-04"), "", true, false},
		{"end before start", booking(ana.ID, "k4", "2025-07-03", "2025-07-01"), errcode.Internal, false, false},
	} {
		got, created, err := s.Book(ctx, tc.b)
		if tc.code != "" {
			if err == nil || errcode.Of(err) != tc.code {
				t.Errorf("%s: err = %v, want %s", tc.name, err, tc.code)
			}
			continue
		}
		if err != nil || created != tc.created || (got.ID == first.ID) != tc.sameID {
			t.Errorf("%s: got %+v, created %v, %v", tc.name, got, created, err)
		}
	}
	list, err := s.UserBookings(ctx, ana.ID)
	if err != nil || len(list) != 1 {
		t.Errorf("UserBookings(ana) = %d, %v; want 1", len(list), err)
	}
}
