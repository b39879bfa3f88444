// Package mcpserver is tripgraph's MCP server: the user's photo albums and
// the accommodation and restaurant catalog as typed tools on the official
// go-sdk, served over Streamable HTTP (NewHTTPHandler) and stdio
// (Server.Run with this package's StdioTransport). The tools read and write
// through the Backend interface: *store.Store (PostgreSQL) or the
// in-memory backend of package mcpserver/memory.
//
// A tool acts as the user of the verified credential that carried the call
// (an mcpauth token or an API key, checked by the HTTP handler), or as the
// fixed user the server was started for (stdio, or HTTP without auth on a
// loopback address). A userId argument is never trusted: it may only repeat
// the verified identity, or the call fails with FORBIDDEN.
//
// Every result carries structuredContent and the same JSON as a text
// block. A failed call is an isError result whose text block is
// {"error":{"code":"NOT_FOUND","message":"…"}}, with a code of package
// errcode.
package mcpserver
