package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tripgraph/tripgraph/errcode"
)

// Booking is a stay a user booked at an accommodation, from the night of
// StartDate to the morning of EndDate.
type Booking struct {
	ID              string
	UserID          string
	AccommodationID string
	StartDate       time.Time
	EndDate         time.Time
	Guests          int
	NightlyPrice    float64
	TotalPrice      float64
	Currency        string
	IdempotencyKey  string
	CreatedAt       time.Time
}

const bookingColumns = `id, user_id, accommodation_id, start_date, end_date, guests, nightly_price, total_price, currency, idempotency_key, created_at`

// Book stores a booking. A booking with the same user and idempotency key
// that is already stored is returned as it is, with created false. Dates
// that overlap another booking of the same accommodation are a CONFLICT.
// The caller fills every field but ID and CreatedAt.
func (s *Store) Book(ctx context.Context, b Booking) (_ Booking, created bool, err error) {
	rows, err := s.Pool.Query(ctx, `
		INSERT INTO bookings (user_id, accommodation_id, start_date, end_date, guests, nightly_price, total_price, currency, idempotency_key)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (user_id, idempotency_key) DO NOTHING
		RETURNING `+bookingColumns,
		b.UserID, b.AccommodationID, b.StartDate, b.EndDate, b.Guests, b.NightlyPrice, b.TotalPrice, b.Currency, b.IdempotencyKey)
	if err != nil {
		return Booking{}, false, fmt.Errorf("booking accommodation %s: %w", b.AccommodationID, err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Booking])
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.ConstraintName == "bookings_no_overlap" {
		return Booking{}, false, errcode.Wrap(errcode.Conflict, err, fmt.Sprintf(
			"accommodation %s is already booked for some of the nights from %s to %s",
			b.AccommodationID, b.StartDate.Format(time.DateOnly), b.EndDate.Format(time.DateOnly)))
	}
	if err != nil {
		return Booking{}, false, fmt.Errorf("booking accommodation %s: %w", b.AccommodationID, err)
	}
	if len(got) == 1 {
		return got[0], true, nil
	}
	first, err := s.bookingByKey(ctx, b.UserID, b.IdempotencyKey)
	return first, false, err
}

func (s *Store) bookingByKey(ctx context.Context, userID, key string) (Booking, error) {
	rows, err := s.Pool.Query(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE user_id = $1 AND idempotency_key = $2`, userID, key)
	if err != nil {
		return Booking{}, fmt.Errorf("reading the booking with key %q: %w", key, err)
	}
	b, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByPos[Booking])
	if err != nil {
		return Booking{}, fmt.Errorf("reading the booking with key %q: %w", key, err)
	}
	return b, nil
}

// UserBookings returns the user's bookings, newest first.
func (s *Store) UserBookings(ctx context.Context, userID string) ([]Booking, error) {
	rows, err := s.Pool.Query(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE user_id = $1 ORDER BY created_at DESC, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("listing the bookings of user %s: %w", userID, err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Booking])
	if err != nil {
		return nil, fmt.Errorf("reading the bookings of user %s: %w", userID, err)
	}
	return list, nil
}
