-- +goose Up
-- Every change to a user's MCP servers is announced on the mcp_servers
-- channel with the user's id, when its transaction commits, so that every
-- process drops what it cached of that user's tools before its next run.
-- +goose StatementBegin
CREATE FUNCTION tg_notify_mcp_servers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mcp_servers', COALESCE(NEW.user_id, OLD.user_id)::text);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER mcp_servers_changed AFTER INSERT OR UPDATE OR DELETE ON mcp_servers
    FOR EACH ROW EXECUTE FUNCTION tg_notify_mcp_servers();

-- +goose Down
DROP TRIGGER mcp_servers_changed ON mcp_servers;
DROP FUNCTION tg_notify_mcp_servers();
