package mcpservers

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
)

// Limits on a server config.
const (
	maxMCPURL          = 2048
	maxMCPSecret       = 4096
	maxMCPAllowedTools = 100
	minMCPTimeoutMS    = 100
	maxMCPTimeoutMS    = 120_000
)

var (
	mcpServerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$`)
	mcpToolName   = regexp.MustCompile(`^[A-Za-z0-9_./-]{1,128}$`)
	headerName    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,63}$`)
)

// reservedHeaders are set by the HTTP client or the MCP transport; a
// credential may not replace them.
var reservedHeaders = []string{"accept", "connection", "content-length", "content-type", "host",
	"last-event-id", "mcp-protocol-version", "mcp-session-id", "te", "transfer-encoding", "upgrade"}

// Vetter checks the configs of the servers users save and seals their
// credentials, for every store of servers: the rules of a config, the
// SSRF guard for its URL, the secret box for its secret.
type Vetter struct {
	Guard *netguard.Guard // vets URLs; nil refuses every server
	Box   *secretbox.Box  // seals secrets; nil refuses servers with one
}

// Check checks a server config and fills in its defaults. hasSecret says
// whether a secret is stored already, which a nil Secret keeps. What a
// client may get wrong is a BAD_REQUEST.
func (v Vetter) Check(in Input, hasSecret bool) (Input, error) {
	bad := func(format string, args ...any) (Input, error) {
		return Input{}, errcode.New(errcode.BadRequest, format, args...)
	}
	in.Name = strings.TrimSpace(in.Name)
	if !mcpServerName.MatchString(in.Name) {
		return bad("a server name is 1 to 40 letters, digits, '-' or '_', starting with a letter or digit")
	}
	u, err := v.validURL(strings.TrimSpace(in.URL))
	if err != nil {
		return Input{}, err
	}
	in.URL = u
	switch in.Transport {
	case "":
		in.Transport = TransportStreamableHTTP
	case TransportStreamableHTTP, TransportSSE:
	case "stdio", "command":
		return bad("only HTTP servers (%s or %s) can be added; servers that run as commands are set up by the operator",
			TransportStreamableHTTP, TransportSSE)
	default:
		return bad("unknown transport %q: use %s or %s", in.Transport, TransportStreamableHTTP, TransportSSE)
	}
	if in.AuthType == "" {
		in.AuthType = AuthNone
	}
	switch in.AuthType {
	case AuthNone:
		if in.Secret != nil {
			return bad("a secret needs auth type %s or %s", AuthBearer, AuthHeader)
		}
	case AuthBearer, AuthHeader:
		if in.Secret == nil && !hasSecret {
			return bad("auth type %s needs a secret", in.AuthType)
		}
		if in.Secret != nil && !validSecret(*in.Secret) {
			return bad("a secret is 1 to %d printable characters", maxMCPSecret)
		}
	default:
		return bad("unknown auth type %q: use %s, %s or %s", in.AuthType, AuthNone, AuthBearer, AuthHeader)
	}
	if in.AuthType != AuthHeader {
		if in.AuthHeader != "" {
			return bad("a header name goes with auth type %s only", AuthHeader)
		}
	} else if !headerName.MatchString(in.AuthHeader) || slices.Contains(reservedHeaders, strings.ToLower(in.AuthHeader)) {
		return bad("%q cannot carry the credential: name another header, such as X-API-Key", in.AuthHeader)
	}
	tools, err := allowedTools(in.AllowedTools)
	if err != nil {
		return Input{}, err
	}
	in.AllowedTools = tools
	if in.TimeoutMS == 0 {
		in.TimeoutMS = int(DefaultTimeout.Milliseconds())
	}
	if in.TimeoutMS < minMCPTimeoutMS || in.TimeoutMS > maxMCPTimeoutMS {
		return bad("the timeout is between %d ms and %d ms", minMCPTimeoutMS, maxMCPTimeoutMS)
	}
	return in, nil
}

// validURL accepts an http or https URL with a host that the SSRF guard
// allows, without a fragment, and returns it normalized (scheme in lower
// case).
func (v Vetter) validURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return "", errcode.New(errcode.BadRequest, "the server URL is not a URL")
	}
	if u.Fragment != "" {
		return "", errcode.New(errcode.BadRequest, "the server URL must not have a #fragment")
	}
	if v.Guard == nil {
		return "", errors.New("checking a server URL: the registry has no SSRF guard")
	}
	if err := v.Guard.CheckURL(raw); err != nil {
		return "", errcode.Wrap(errcode.BadRequest, err, "the server URL is not allowed: "+strings.TrimPrefix(err.Error(), netguard.ErrBlocked.Error()+": "))
	}
	if norm := u.String(); len(norm) <= maxMCPURL {
		return norm, nil
	}
	return "", errcode.New(errcode.BadRequest, "the server URL is longer than %d characters", maxMCPURL)
}

// Secret is the sealed secret to store for server id saved with in, which
// Check returned: none with AuthNone; in's own secret, sealed, when it
// has one; otherwise stored, the one the server has (nil for a new one).
// Without a Box a secret to seal is UNAVAILABLE.
func (v Vetter) Secret(id string, in Input, stored []byte) ([]byte, error) {
	switch {
	case in.AuthType == AuthNone:
		return nil, nil
	case in.Secret == nil:
		return stored, nil
	case v.Box == nil:
		return nil, errcode.New(errcode.Unavailable, "this server is not set up to store credentials")
	}
	return v.Box.Seal([]byte(*in.Secret), associatedData(id))
}

// Open opens the sealed secret of server id; none is "". Without a Box it
// is UNAVAILABLE; a secret sealed for another server, or with another
// key, does not open.
func (v Vetter) Open(id string, sealed []byte) (string, error) {
	if sealed == nil {
		return "", nil
	}
	if v.Box == nil {
		return "", errcode.New(errcode.Unavailable, "this server is not set up to read credentials")
	}
	plain, err := v.Box.Open(sealed, associatedData(id))
	if err != nil {
		return "", fmt.Errorf("opening the secret of MCP server %s: %w", id, err)
	}
	return string(plain), nil
}

// associatedData binds a sealed secret to its server.
func associatedData(id string) []byte { return []byte("mcp_servers/" + id) }

// allowedTools checks tool names and drops repeats.
func allowedTools(names []string) ([]string, error) {
	out := []string{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !mcpToolName.MatchString(n) {
			return nil, errcode.New(errcode.BadRequest, "%q is not a tool name", n)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	if len(out) > maxMCPAllowedTools {
		return nil, errcode.New(errcode.BadRequest, "at most %d allowed tools", maxMCPAllowedTools)
	}
	return out, nil
}

// validSecret: non-empty, bounded and printable ASCII, so it cannot split
// an HTTP header.
func validSecret(s string) bool {
	if s == "" || len(s) > maxMCPSecret {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
