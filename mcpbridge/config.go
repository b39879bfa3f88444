package mcpbridge

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OurServer is the name tripgraph's own tool server goes by, in the bridge
// and in the status events.
const OurServer = "tripgraph"

// Transport names how the bridge reaches a server.
type Transport string

// The transports the bridge speaks.
const (
	// Streamable is MCP's Streamable HTTP transport.
	Streamable Transport = "streamable-http"
	// SSE is the legacy HTTP+SSE transport (a GET event stream plus POSTs).
	SSE Transport = "sse"
	// Stdio starts a command and speaks over its standard input and output.
	// Only the operator configures commands; users may not.
	Stdio Transport = "stdio"
	// Memory serves an in-process server over a pair of in-memory
	// connections that hand each other messages as values, their params
	// and results as the JSON text the sender made.
	Memory Transport = "memory"
)

// DefaultProtocolVersion is the MCP version sessions ask for unless a
// server's config says otherwise: the session-based version servers speak
// today. Asking for a later one makes the SDK probe with server/discover
// first, one more round trip that some servers answer badly.
const DefaultProtocolVersion = "2025-11-25"

// Defaults of the safety limits.
const (
	DefaultTimeout          = 10 * time.Second
	DefaultMaxResponseBytes = 1 << 20
	DefaultToolListTTL      = 5 * time.Minute
)

// ServerConfig is one MCP server a user's tools come from.
type ServerConfig struct {
	// Name identifies the server to the user and in status events; it
	// prefixes its tool names when they clash with another server's.
	Name string
	// ID is the registry's id of a user's server, which the enrichment
	// settings name; empty for the operator's servers.
	ID        string
	Transport Transport
	// URL is the endpoint of an HTTP transport.
	URL string
	// Command is the program and arguments of a stdio server.
	Command []string
	// Headers are sent with every HTTP request (an API key, say).
	Headers map[string]string
	// Enabled servers are used; others are skipped.
	Enabled bool
	// AllowedTools, when not empty, are the only tools of the server the
	// model sees and may call.
	AllowedTools []string
	// Recommended tools are ranked first.
	Recommended []string
	// Timeout bounds each call (DefaultTimeout when zero).
	Timeout time.Duration
	// MaxResponseBytes bounds one response (DefaultMaxResponseBytes when
	// zero).
	MaxResponseBytes int64
	// Builtin marks tripgraph's own servers: always present, reached with
	// an mcpauth token minted for the user, trusted with the plain HTTP
	// client rather than the guarded one.
	Builtin bool
	// NewServer makes the in-process server a Memory session talks to,
	// acting as the given user.
	NewServer func(userID string) *mcp.Server
	// ProtocolVersion is the MCP version the session asks for
	// (DefaultProtocolVersion when empty).
	ProtocolVersion string

	fromOperator bool // set by the bridge for the servers of Options
}

func (c ServerConfig) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c ServerConfig) maxResponseBytes() int64 {
	if c.MaxResponseBytes > 0 {
		return c.MaxResponseBytes
	}
	return DefaultMaxResponseBytes
}

// check reports a configuration the bridge cannot use.
func (c ServerConfig) check() error {
	switch c.Transport {
	case Streamable, SSE:
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("server %q: want an http or https URL", c.Name)
		}
	case Stdio:
		if len(c.Command) == 0 {
			return fmt.Errorf("server %q: a stdio server needs a command", c.Name)
		}
		if !c.Builtin && !c.operator() {
			return fmt.Errorf("server %q: only the operator may configure a command", c.Name)
		}
	case Memory:
		if c.NewServer == nil {
			return fmt.Errorf("server %q: an in-memory server needs NewServer", c.Name)
		}
	default:
		return fmt.Errorf("server %q: unknown transport %q", c.Name, c.Transport)
	}
	return nil
}

// operator reports whether the config comes from the operator (the
// bridge's Options) rather than from a user's registry.
func (c ServerConfig) operator() bool { return c.fromOperator }

// HTTPClients are the clients the HTTP transports use.
type HTTPClients struct {
	// Trusted reaches built-in and operator-configured servers
	// (http.DefaultClient's transport when nil).
	Trusted *http.Client
	// Guarded reaches the servers users configure; set it to a client
	// whose dialer refuses private addresses. When nil, Trusted is used.
	Guarded *http.Client
}
