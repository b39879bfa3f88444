// Package mcpbridge is tripgraph's MCP client side: a Bridge implements
// nodes.Tools over every MCP server a user has, on the official go-sdk
// client.
//
// Servers are the built-in and operator-configured ones of Options, plus
// the user's own enabled servers (User.Servers). The bridge speaks
// Streamable HTTP, the legacy HTTP+SSE transport, stdio (a command, which
// only the operator configures) and in-memory connections to an in-process
// server.
//
// The user is whom For was given (their tenant's User: id, own servers,
// output store), never tool arguments: a userId the model writes is
// dropped, or, for a built-in tool that declares one, replaced by that
// user. Built-in servers over HTTP get an mcpauth token minted for them.
// A built-in server's tool may name the card that shows its results in
// its metadata (card.Meta); the bridge passes it on with the tool and its
// status events.
//
// Each (user, server) pair has one session, dialled on first use and kept
// across runs. When the server lost it (404 for a known session), closed
// the connection, or refused the credentials (401, 410), the bridge
// redials once under the session's lock and retries the request once.
// Close closes every session.
//
// Every call has a deadline from the context (DefaultTimeout unless the
// server's config says otherwise), goes through the server's circuit
// breaker, and reads at most the server's response cap, counted as the
// bytes arrive. A breaker opens after BreakerSettings.Failures failures in
// a row, or at once for a user's own server that cannot be reached (no
// session could be opened, or no answer within the deadline): its failure
// is remembered per user and server for BreakerSettings.OpenFor, so a run
// pays at most one timeout for it, not one for the tool list, the
// enrichment and each call. A failure after the caller gave up is not
// counted. A transport failure reaches the caller as UNAVAILABLE with
// a message that names the server and nothing internal; the cause is
// logged once, with the run id. A tool's own error (isError) keeps the
// server's code.
//
// Results are the structuredContent when there is one, else the JSON of
// the first text block, else that text. A result over LargeResultBytes or
// with more than LargeResultItems items is given whole to the UI
// (nodes.Result.Full) but to the model as a Reduced summary, preview and
// stored-copy id (nodes.Result.ForModel), its full copy kept in an
// OutputStore. An object keeps its shape for the model: its arrays cut to
// their first items, the summary and id under "truncated".
//
// Tool lists are cached per user and server for the TTL and dropped on
// notifications/tools/list_changed. Built-in tools keep their names; a
// user's tool whose name another server also uses is called
// server__tool. Recommended tools come first and heavy utilities (dump,
// list_all, …) last. Inside a graph run each call emits mcp_calling,
// mcp_progress and mcp_complete custom events.
//
// Enricher calls a user's own tools before the model is asked, when the
// user turned enrichment on: the tools of their chosen servers whose one
// required argument is the message text (query, q, text, …), each through
// Call, so with the same events, limits and large-result handling.
package mcpbridge
