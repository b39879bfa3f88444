package mcpserver

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/media"
)

// Version is the server version reported to clients.
const Version = "0.5.0"

// Config is what the tools need.
type Config struct {
	// Backend holds the catalog, the bookings and the albums.
	Backend Backend
	// URLs makes photo and picture URLs (photo URLs are signed for their
	// owner and expire).
	URLs media.URLs
	// Resolve finds the place a traveller's words name ("Lisboa", "Paris,
	// Texas", "Japão"), as the planner's gazetteer does. Optional: without
	// it only the catalog's own English and local names match, nothing
	// tells the nearest covered cities, and album names match in their own
	// language only.
	Resolve func(text string) (Place, bool)
	// Now is the clock dates are checked against; time.Now when nil.
	Now func() time.Time
	// User is the id of the user every call acts as when the request
	// carries no verified credential: stdio, or HTTP with auth off. Empty,
	// a call without a credential is FORBIDDEN.
	User string
	// LinksNote, when set, says why tool results carry no photo or picture
	// links and how to enable them (stdio without a public URL or a
	// shared secret, where no link could work); URLs is then the zero
	// value, which makes no links. Each tool with link fields then returns
	// it as linksNote.
	LinksNote string
	// Logger receives every INTERNAL error and panic, once, with its
	// request id.
	Logger *slog.Logger
}

// New returns an MCP server with every tripgraph tool.
func New(cfg Config) *mcp.Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Resolve == nil {
		cfg.Resolve = func(string) (Place, bool) { return Place{}, false }
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "tripgraph", Title: "tripgraph trips, albums and places", Version: Version},
		&mcp.ServerOptions{
			Instructions: instructions,
			Logger:       cfg.Logger,
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		})
	s.AddReceivingMiddleware(onlyDeclared, traced)
	t := &tools{cfg: cfg}
	t.addAlbumTools(s)
	t.addCatalogTools(s)
	return s
}

const instructions = `tripgraph answers about the user's own travel photo albums and about places to stay and eat.
Albums: getUserAlbums lists them; getAlbumByName finds one by name; with an albumId use getAlbumPhotos, getPhotosByDate, getPhotosByLocation or getTripStats.
When the user asks for photos without naming an album, use searchPhotosAcrossAlbums instead of asking which album.
Places: list-accommodations and list-restaurants take a city; book-accommodation books a stay (send a fresh idempotencyKey per booking).
Dates are YYYY-MM-DD. The user's identity comes from the connection, never from arguments.`

// tools holds what the tool handlers share.
type tools struct {
	cfg Config
}

// answered are the methods the server answers: those of the capabilities
// it declares (tools), and the lifecycle ones. The SDK knows more
// (prompts, resources, logging, completion); a client that calls them
// gets "method not found", as the capabilities it was given promise.
var answered = map[string]bool{
	"initialize": true, "ping": true, "tools/list": true, "tools/call": true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/progress": true, "notifications/roots/list_changed": true,
}

// onlyDeclared refuses, with "method not found", the methods the server
// does not declare.
func onlyDeclared(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !answered[method] {
			return nil, methodNotFound(method)
		}
		return next(ctx, method, req)
	}
}

func methodNotFound(method string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method %q not found", echo(method))}
}

// requestIDHeader carries the request id the HTTP handler gives every
// request, to the tools (which log it) and back to the client.
const requestIDHeader = "X-Request-Id"

type requestIDKey struct{}

// withRequestID returns ctx with the id of the request that carried a call:
// the one the HTTP handler set, else (stdio) a new one.
func withRequestID(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	id := ""
	if req != nil && req.Extra != nil && req.Extra.Header != nil {
		id = req.Extra.Header.Get(requestIDHeader)
	}
	if id == "" {
		id = newRequestID()
	}
	return context.WithValue(ctx, requestIDKey{}, id)
}

// requestID returns the request id withRequestID put in ctx.
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

func newRequestID() string { return rand.Text()[:16] }

// internalError is what a client sees of an INTERNAL error or a panic: the
// code, a generic message and the request id under which it was logged.
func internalError(ctx context.Context) error {
	return errcode.New(errcode.Internal, "internal error (request id %s)", requestID(ctx))
}
