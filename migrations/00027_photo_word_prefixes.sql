-- +goose Up
-- The photo search (store/catalog, SearchPhotosPage) finds a term at the
-- start of a word of a photo's folded description and location name. It
-- scanned a trigram index with a LIKE pattern and checked the rule on
-- every row it read, folding the text again each time; a common word
-- ("praia", in one photo in ten) cost three long trigram lists
-- intersected. Now:
--
-- search_text is the text a search matches, folded once when the photo is
-- written: the description and the location name joined by a unit
-- separator (U+001F), which is neither a letter nor a digit, so that no
-- word spans the two. It follows tg_fold: a migration that changes
-- tg_fold must recompute it (UPDATE photos SET description = description).
ALTER TABLE photos ADD COLUMN search_text text NOT NULL
    GENERATED ALWAYS AS (tg_fold(description || E'\x1f' || location_name)) STORED;

-- tg_word_prefixes lists the beginnings of the words of a folded text,
-- of one to sixteen characters: "praia do forte" gives p, pr, pra, prai,
-- praia, d, do, f, fo, … forte. Words are split where
-- textfold.MatchesFolded splits them, at ASCII characters that are not
-- letters or digits (the bracket expression lists them by code, so that
-- its meaning does not depend on the database's locale). A word longer
-- than sixteen characters gives its first sixteen.
-- +goose StatementBegin
CREATE FUNCTION tg_word_prefixes(t text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ARRAY(
        SELECT left(w, n)
        FROM regexp_split_to_table(t, '[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+') w,
            generate_series(1, least(length(w), 16)) n);
-- +goose StatementEnd

-- A term matches a text only if each of its words begins a word of the
-- text, so the photos that can match "aniversário da Vivi" are those whose
-- prefixes contain {aniversario, da, vivi}: one exact lookup per word in
-- this index, however common the word, and the rule is then checked on
-- the stored search_text of the rows read. It replaces the trigram index,
-- which stays until a contract migration of a later release: the release
-- before this one still searches with it.
CREATE INDEX photos_search_prefixes ON photos USING gin (tg_word_prefixes(search_text));

-- +goose Down
DROP INDEX photos_search_prefixes;
DROP FUNCTION tg_word_prefixes(text);
ALTER TABLE photos DROP COLUMN search_text;
