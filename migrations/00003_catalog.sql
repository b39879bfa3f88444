-- +goose Up
-- The user's photo albums and the accommodation and restaurant catalog.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- tg_fold is the form text is searched in: lower case, without accents.
-- unaccent() is only STABLE (its dictionary could change), so it cannot
-- appear in an index; this wrapper names the dictionary explicitly and is
-- declared IMMUTABLE, which is what the trigram indexes below need.
-- +goose StatementBegin
CREATE FUNCTION tg_fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(public.unaccent('public.unaccent'::regdictionary, t));
-- +goose StatementEnd

CREATE TABLE albums (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    description text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, name)
);
CREATE INDEX albums_name_fold_trgm ON albums USING gin (tg_fold(name) gin_trgm_ops);

-- A photo's user_id repeats its album's, so that a search across all of a
-- user's albums needs no join. path is relative to the media root.
CREATE TABLE photos (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    album_id      uuid NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    description   text NOT NULL DEFAULT '',
    location_name text NOT NULL DEFAULT '',
    taken_at      date NOT NULL,
    lat           double precision,
    lng           double precision,
    path          text NOT NULL CHECK (path <> '' AND path NOT LIKE '/%' AND strpos(path, '..') = 0),
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX photos_album_taken_idx ON photos (album_id, taken_at, id);
CREATE INDEX photos_user_taken_idx ON photos (user_id, taken_at DESC, id);
-- One trigram GIN index on the folded description and location name, joined
-- by a unit separator (U+001F), serves case-, accent-insensitive partial
-- matches in either (store.SearchPhotos):
--   tg_fold(description || E'\x1f' || location_name) LIKE '%term%'.
-- One index instead of one per column: a single bitmap index scan and a
-- single recheck per row instead of a BitmapOr and two. The separator is
-- neither a letter nor a digit, so no trigram spans the two columns, and a
-- term without it cannot match across them. user_id is not in the index
-- (btree_gin): with the 1M-photo, one-user benchmark it made the index scan
-- of common terms two to four times slower (bench/MCP.md); the heap
-- recheck filters by user.
CREATE INDEX photos_search_trgm ON photos
    USING gin (tg_fold(description || E'\x1f' || location_name) gin_trgm_ops);

-- The cities the catalog covers, most populous first (rank 1).
CREATE TABLE catalog_cities (
    id         text PRIMARY KEY,
    name       text NOT NULL,
    geo_name   text NOT NULL,
    country    text NOT NULL,
    population integer NOT NULL,
    rank       integer NOT NULL,
    lat        double precision NOT NULL,
    lng        double precision NOT NULL
);
CREATE INDEX catalog_cities_name_idx ON catalog_cities (tg_fold(name));
CREATE INDEX catalog_cities_geo_name_idx ON catalog_cities (tg_fold(geo_name));

CREATE TABLE accommodations (
    id            uuid PRIMARY KEY,
    city_id       text NOT NULL REFERENCES catalog_cities (id) ON DELETE CASCADE,
    name          text NOT NULL,
    kind          text NOT NULL,
    nightly_price numeric(10, 2) NOT NULL CHECK (nightly_price > 0),
    currency      text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    rating        numeric(2, 1) NOT NULL CHECK (rating BETWEEN 0 AND 5),
    capacity      integer NOT NULL CHECK (capacity > 0),
    lat           double precision NOT NULL,
    lng           double precision NOT NULL
);
CREATE INDEX accommodations_city_idx ON accommodations (city_id, capacity);

CREATE TABLE restaurants (
    id            uuid PRIMARY KEY,
    city_id       text NOT NULL REFERENCES catalog_cities (id) ON DELETE CASCADE,
    name          text NOT NULL,
    cuisine       text NOT NULL,
    price_range   text NOT NULL CHECK (price_range IN ('$', '$$', '$$$', '$$$$')),
    rating        numeric(2, 1) NOT NULL CHECK (rating BETWEEN 0 AND 5),
    distance_km   numeric(5, 1) NOT NULL CHECK (distance_km >= 0),
    opening_hours text NOT NULL,
    popular       boolean NOT NULL DEFAULT false,
    lat           double precision NOT NULL,
    lng           double precision NOT NULL
);
CREATE INDEX restaurants_city_idx ON restaurants (city_id);

-- A place is booked at most once for any night: two bookings of the same
-- accommodation whose [start, end) ranges overlap violate the exclusion
-- constraint (SQLSTATE 23P01). An idempotency key is unique per user.
CREATE TABLE bookings (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    accommodation_id uuid NOT NULL REFERENCES accommodations (id) ON DELETE CASCADE,
    start_date       date NOT NULL,
    end_date         date NOT NULL,
    guests           integer NOT NULL CHECK (guests > 0),
    nightly_price    numeric(10, 2) NOT NULL,
    total_price      numeric(12, 2) NOT NULL,
    currency         text NOT NULL,
    idempotency_key  text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
    created_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (end_date > start_date),
    UNIQUE (user_id, idempotency_key),
    CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
        accommodation_id WITH =,
        daterange(start_date, end_date) WITH &&
    )
);
CREATE INDEX bookings_user_idx ON bookings (user_id, created_at);

-- +goose Down
DROP TABLE bookings;
DROP TABLE restaurants;
DROP TABLE accommodations;
DROP TABLE catalog_cities;
DROP TABLE photos;
DROP TABLE albums;
DROP FUNCTION tg_fold(text);
-- The extensions stay: other objects may use them, and they are harmless.
