// Package mcpext names what tripgraph's MCP server and its MCP bridge
// agree on beyond the protocol, in the places the protocol leaves for it.
// Any other client or server ignores them, and is answered as the
// protocol says.
package mcpext

// StructuredOnly is an experimental client capability: a client that
// declares it reads a tool result's structured content, so the server
// need not repeat that content as a JSON text block. The protocol asks a
// server to send both for clients that read only text; the bridge reads
// the structured content first, and a result's text copy doubles what
// each call encodes and decodes.
const StructuredOnly = "tripgraph/structuredOnly"
