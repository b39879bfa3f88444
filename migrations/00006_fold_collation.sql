-- +goose Up
-- tg_fold's lower() followed the database's character type: in a C
-- database it lowers only ASCII letters, in an en_US.UTF-8 one every
-- letter, so the same text folded differently from one server to another,
-- and an index built on one type could not serve the other. Pinned to the
-- "C" collation it is the same everywhere: unaccent's rules, then ASCII
-- letters lowered. Go's package textfold gives exactly this. The indexes
-- on tg_fold are rebuilt, since the function they were built with changed.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tg_fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(public.unaccent('public.unaccent'::regdictionary, t) COLLATE "C");
-- +goose StatementEnd
-- +goose StatementBegin
DO $$
DECLARE
    idx regclass;
BEGIN
    FOR idx IN
        SELECT DISTINCT d.objid::regclass FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
        WHERE d.classid = 'pg_class'::regclass AND c.relkind = 'i' AND d.refobjid = 'tg_fold(text)'::regprocedure
    LOOP
        EXECUTE format('REINDEX INDEX %s', idx);
    END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION tg_fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(public.unaccent('public.unaccent'::regdictionary, t));
-- +goose StatementEnd
-- +goose StatementBegin
DO $$
DECLARE
    idx regclass;
BEGIN
    FOR idx IN
        SELECT DISTINCT d.objid::regclass FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
        WHERE d.classid = 'pg_class'::regclass AND c.relkind = 'i' AND d.refobjid = 'tg_fold(text)'::regprocedure
    LOOP
        EXECUTE format('REINDEX INDEX %s', idx);
    END LOOP;
END
$$;
-- +goose StatementEnd
