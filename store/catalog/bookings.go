package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/tripdata"
)

const bookingColumns = `id, user_id, accommodation_id, start_date, end_date, guests, nightly_price, total_price, currency, idempotency_key, created_at`

// Book stores a booking. A booking with the same user and idempotency key
// that is already stored is returned as it is, with created false. Dates
// that overlap another booking of the same accommodation are a CONFLICT.
// The caller fills every field but ID and CreatedAt.
func (s *Store) Book(ctx context.Context, b tripdata.Booking) (_ tripdata.Booking, created bool, err error) {
	rows, err := s.Pool.Query(ctx, `
		INSERT INTO bookings (user_id, accommodation_id, start_date, end_date, guests, nightly_price, total_price, currency, idempotency_key)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (user_id, idempotency_key) DO NOTHING
		RETURNING `+bookingColumns,
		b.UserID, b.AccommodationID, b.StartDate, b.EndDate, b.Guests, b.NightlyPrice, b.TotalPrice, b.Currency, b.IdempotencyKey)
	if err != nil {
		return tripdata.Booking{}, false, fmt.Errorf("booking accommodation %s: %w", b.AccommodationID, err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[tripdata.Booking])
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.ConstraintName == "bookings_no_overlap" {
		return tripdata.Booking{}, false, errcode.Wrap(errcode.Conflict, err, fmt.Sprintf(
			"accommodation %s is already booked for some of the nights from %s to %s",
			b.AccommodationID, b.StartDate.Format(time.DateOnly), b.EndDate.Format(time.DateOnly)))
	}
	if err != nil {
		return tripdata.Booking{}, false, fmt.Errorf("booking accommodation %s: %w", b.AccommodationID, err)
	}
	if len(got) == 1 {
		return got[0], true, nil
	}
	first, err := s.bookingByKey(ctx, b.UserID, b.IdempotencyKey)
	return first, false, err
}

func (s *Store) bookingByKey(ctx context.Context, userID, key string) (tripdata.Booking, error) {
	rows, err := s.Pool.Query(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE user_id = $1 AND idempotency_key = $2`, userID, key)
	if err != nil {
		return tripdata.Booking{}, fmt.Errorf("reading the booking with key %q: %w", key, err)
	}
	b, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByPos[tripdata.Booking])
	if err != nil {
		return tripdata.Booking{}, fmt.Errorf("reading the booking with key %q: %w", key, err)
	}
	return b, nil
}

// UserBookings returns the user's bookings, newest first.
func (s *Store) UserBookings(ctx context.Context, userID string) ([]tripdata.Booking, error) {
	rows, err := s.Pool.Query(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("listing the bookings of user %s: %w", userID, err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[tripdata.Booking])
	if err != nil {
		return nil, fmt.Errorf("reading the bookings of user %s: %w", userID, err)
	}
	return list, nil
}

// Booked reports whether a booking of the accommodation shares a night with
// the stay from start to end.
func (s *Store) Booked(ctx context.Context, accommodationID string, start, end time.Time) (bool, error) {
	var booked bool
	err := s.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM bookings /* any owner: booking */ WHERE accommodation_id = $1
		AND daterange(start_date, end_date) && daterange($2::date, $3::date))`, accommodationID, start, end).Scan(&booked)
	if err != nil {
		return false, fmt.Errorf("checking the bookings of accommodation %s: %w", accommodationID, err)
	}
	return booked, nil
}
