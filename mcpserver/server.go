package mcpserver

import (
	"context"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	User   string
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
	s.AddReceivingMiddleware(codedArgumentErrors)
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

// codedArgumentErrors rewrites the errors the SDK reports itself, before a
// handler runs (arguments that do not match the input schema), into the
// coded form every other tool error has.
func codedArgumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !r.IsError || len(r.Content) != 1 {
			return res, err
		}
		if text, ok := r.Content[0].(*mcp.TextContent); ok && !isCodedError(text.Text) {
			text.Text = errorJSON(badRequest("invalid arguments: %s", text.Text))
		}
		return res, err
	}
}
