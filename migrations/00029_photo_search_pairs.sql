-- +goose Up
-- The photo search (store/catalog, SearchPhotosPage) reads the first 1001
-- matches of a term in the table's physical order. Through the index of
-- word beginnings (00027) a term of several words intersected the long
-- lists of its words ("aniversário da Vivi": aniversario, da and vivi,
-- 236,000 photos for 7,092 matches), and a common word gathered and sorted
-- its whole list (praia: 97,496 photos) to read 1001 of them. Two
-- additions, both only used by this release:

-- tg_word_pairs lists, for each two consecutive words of a folded text,
-- the first word (its first sixteen characters) and the first one to four
-- characters of the second, joined by a space: "praia do forte" gives
-- "praia d", "praia do", "do f", "do fo", "do for", "do fort". In a match
-- of a term of several words, each word of the term but the last is a
-- whole word of the text and the next word of the term begins the text's
-- next word, so each consecutive pair of the term's words gives a key of
-- this list; "aniversário da Vivi" looks up "aniversario da" and "da vivi"
-- (7,100 photos). Words are split as tg_word_prefixes splits them.
-- +goose StatementBegin
CREATE FUNCTION tg_word_pairs(t text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ARRAY(
        SELECT left(w.first, 16) || ' ' || left(w.second, n)
        FROM (
            SELECT lag(s.word) OVER (ORDER BY s.i) AS first, s.word AS second
            FROM regexp_split_to_table(t, '[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+') WITH ORDINALITY s(word, i)
            WHERE s.word <> '') w,
            generate_series(1, least(length(w.second), 4)) n
        WHERE w.first IS NOT NULL);
-- +goose StatementEnd

CREATE INDEX photos_search_pairs ON photos USING gin (tg_word_pairs(search_text));

-- tg_block_start returns the first tuple id of a block of a table: the
-- photo search reads the blocks before the one it is given row by row
-- (ctid < tg_block_start(n), a TID range scan) and those from it through
-- an index, each part in physical order, and the first 1001 matches in
-- that order are the ones it returns (store/catalog, "Photo and album
-- search" in store/README.md). It is PARALLEL UNSAFE so that no query that
-- calls it runs in parallel, as workers would not keep that order.
CREATE FUNCTION tg_block_start(block bigint) RETURNS tid
    LANGUAGE sql STABLE STRICT PARALLEL UNSAFE
    RETURN format('(%s,0)', block)::tid;

-- +goose Down
DROP FUNCTION tg_block_start(bigint);
DROP INDEX photos_search_pairs;
DROP FUNCTION tg_word_pairs(text);
