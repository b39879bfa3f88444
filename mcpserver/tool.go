package mcpserver

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
)

// Caller is embedded in every tool input. Its userId is never used to pick
// the user: when present it must name the verified user, or the call is
// FORBIDDEN.
type Caller struct {
	UserID string `json:"userId,omitempty" jsonschema:"Optional. Never needed: the user comes from the connection's credential. If given it must be the authenticated user's id, else the call fails with FORBIDDEN."`
}

func (c Caller) claimedUser() string { return c.UserID }

type claimer interface{ claimedUser() string }

// handler is a tool's logic, given the verified user id.
type handler[In, Out any] func(ctx context.Context, user string, in In) (Out, error)

// addTool registers a typed tool whose handler runs as the verified user,
// whose errors become coded isError results, and whose panics are
// recovered into INTERNAL errors rather than crashing the server.
func addTool[In claimer, Out any](s *mcp.Server, t *tools, tool *mcp.Tool, h handler[In, Out]) {
	addTyped(s, t, tool, func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				t.cfg.Logger.Error("tool panicked", "tool", tool.Name, "request_id", requestID(ctx), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				var zero Out
				res, out, err = nil, zero, toolError{internalError(ctx)}
			}
		}()
		user, err := t.identify(req, in.claimedUser())
		if err == nil {
			out, err = h(ctx, user, in)
		}
		if err != nil {
			if errcode.Of(err) == errcode.Internal {
				t.cfg.Logger.Error("tool failed", "tool", tool.Name, "request_id", requestID(ctx), "err", err)
				err = internalError(ctx)
			}
			var zero Out
			return nil, zero, toolError{err}
		}
		return nil, out, nil
	})
}

// identify returns the user a call acts as: the verified credential's, else
// the server's fixed user. A claimed userId must agree with it.
func (t *tools) identify(req *mcp.CallToolRequest, claimed string) (string, error) {
	user := t.cfg.User
	if req != nil && req.Extra != nil && req.Extra.TokenInfo != nil && req.Extra.TokenInfo.UserID != "" {
		user = req.Extra.TokenInfo.UserID
	}
	if user == "" {
		return "", errcode.New(errcode.Forbidden, "no verified credential: connect with a bearer token or API key")
	}
	if claimed != "" && claimed != user {
		return "", errcode.New(errcode.Forbidden, "userId does not match the authenticated user")
	}
	return user, nil
}

// toolError is a tool failure whose text is the coded JSON error the
// clients parse: {"error":{"code":…,"message":…}}.
type toolError struct{ err error }

func (e toolError) Error() string { return errorJSON(e.err) }
func (e toolError) Unwrap() error { return e.err }

// errorBody is the coded error's JSON shape, for the HTTP handler's own
// errors.
type errorBody = errcode.Body

func errorJSON(err error) string { return string(errcode.JSON(err)) }

func badRequest(format string, args ...any) error {
	return errcode.New(errcode.BadRequest, format, args...)
}
