package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/mcpservers"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/netguard"
)

func init() {
	register(command{
		name:    "servers",
		summary: "a user's own MCP servers: servers add|list|remove|tools|enrich --user NAME",
		run:     runServers,
	})
}

const serversUsage = `usage:
  tripgraph servers add    --user NAME --name SERVER --url URL [--transport streamable-http|sse]
                           [--auth none|bearer|header] [--header NAME] [--secret-env VAR | --secret-stdin]
                           [--tools a,b] [--timeout 10s] [--disabled]
  tripgraph servers list   --user NAME
  tripgraph servers remove --user NAME SERVER
  tripgraph servers tools  --user NAME SERVER
  tripgraph servers enrich --user NAME on|off [--only SERVER,SERVER]
SERVER is a server's name or id. Users add HTTP servers only; servers that
run as commands are the operator's.`

// serversEnv is what the servers subcommands work with.
type serversEnv struct {
	users *accounts.Store
	reg   mcpservers.Registry
	out   io.Writer
	stdin io.Reader
}

// runServers opens the store, the SSRF guard and the secret box from the
// environment and runs a servers subcommand.
func runServers(ctx context.Context, cfg config.Config, args []string) error {
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	reg, err := userRegistry(st, cfg.Servers)
	if err != nil {
		return err
	}
	env := serversEnv{users: st.Accounts, reg: reg, out: os.Stdout, stdin: os.Stdin}
	return env.run(ctx, args)
}

// run dispatches a servers subcommand.
func (e serversEnv) run(ctx context.Context, args []string) error {
	subs := map[string]func(context.Context, []string) error{
		"add": e.add, "list": e.list, "remove": e.remove, "tools": e.tools, "enrich": e.enrich,
	}
	if len(args) == 0 || subs[args[0]] == nil {
		fmt.Fprintln(os.Stderr, serversUsage)
		return flag.ErrHelp
	}
	return subs[args[0]](ctx, args[1:])
}

// serversFlags starts a subcommand's flag set with the --user flag.
func serversFlags(sub string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("servers "+sub, flag.ContinueOnError)
	return fs, fs.String("user", "", "the user whose servers these are (required)")
}

// parse parses the flags, wants positional arguments, and finds the user.
func (e serversEnv) parse(ctx context.Context, fs *flag.FlagSet, user *string, args []string, positional int) (accounts.User, error) {
	if err := fs.Parse(args); err != nil {
		return accounts.User{}, err
	}
	if *user == "" || fs.NArg() != positional {
		fmt.Fprintln(os.Stderr, serversUsage)
		return accounts.User{}, flag.ErrHelp
	}
	return e.users.UserByName(ctx, *user)
}

// find returns the user's server with this name or id.
func (e serversEnv) find(ctx context.Context, u accounts.User, nameOrID string) (mcpservers.Server, error) {
	list, err := e.reg.List(ctx, u.ID)
	if err != nil {
		return mcpservers.Server{}, err
	}
	i := slices.IndexFunc(list, func(m mcpservers.Server) bool { return m.ID == nameOrID || m.Name == nameOrID })
	if i < 0 {
		return mcpservers.Server{}, errcode.New(errcode.NotFound, "%s has no MCP server %q", u.Name, nameOrID)
	}
	return list[i], nil
}

func (e serversEnv) add(ctx context.Context, args []string) error {
	fs, user := serversFlags("add")
	name := fs.String("name", "", "the server's name: letters, digits, - and _ (required)")
	rawURL := fs.String("url", "", "the server's http or https URL (required)")
	transport := fs.String("transport", mcpservers.TransportStreamableHTTP, "streamable-http or sse")
	auth := fs.String("auth", mcpservers.AuthNone, "none, bearer or header")
	header := fs.String("header", "", "the header that carries the secret, for --auth header")
	secretEnv := fs.String("secret-env", "", "read the secret from this environment variable")
	secretStdin := fs.Bool("secret-stdin", false, "read the secret from the first line of standard input")
	tools := fs.String("tools", "", "comma-separated tools the model may use (default: all)")
	timeout := fs.Duration("timeout", mcpservers.DefaultTimeout, "each call's deadline")
	disabled := fs.Bool("disabled", false, "add the server switched off")
	u, err := e.parse(ctx, fs, user, args, 0)
	if err != nil {
		return err
	}
	secret, err := e.secret(*secretEnv, *secretStdin)
	if err != nil {
		return err
	}
	if secret != nil && e.reg.Box == nil {
		return errors.New("storing a secret needs TRIPGRAPH_SECRET_KEY: 32 bytes as hex or base64")
	}
	m, err := e.reg.Create(ctx, u.ID, mcpservers.Input{
		Name: *name, URL: *rawURL, Transport: *transport, AuthType: *auth, AuthHeader: *header, Secret: secret,
		Enabled: !*disabled, AllowedTools: splitCommaList(*tools), TimeoutMS: int(timeout.Milliseconds()),
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.out, "added %s (%s) for %s\n", m.Name, m.ID, u.Name)
	return nil
}

// secret reads the secret from where the flags say; nil when none. A
// secret is never a flag's value, which shells and ps would show.
func (e serversEnv) secret(envVar string, stdin bool) (*string, error) {
	switch {
	case envVar != "" && stdin:
		return nil, errors.New("give --secret-env or --secret-stdin, not both")
	case envVar != "":
		v, ok := os.LookupEnv(envVar)
		if !ok {
			return nil, fmt.Errorf("%s is not set", envVar)
		}
		return &v, nil
	case stdin:
		line, err := bufio.NewReader(e.stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading the secret: %w", err)
		}
		v := strings.TrimRight(line, "\r\n")
		return &v, nil
	}
	return nil, nil
}

func (e serversEnv) list(ctx context.Context, args []string) error {
	fs, user := serversFlags("list")
	u, err := e.parse(ctx, fs, user, args, 0)
	if err != nil {
		return err
	}
	list, err := e.reg.List(ctx, u.ID)
	if err != nil {
		return err
	}
	settings, err := e.reg.Settings(ctx, u.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.out, "enrichment: %s\n", describeEnrichment(settings, list))
	tw := tabwriter.NewWriter(e.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tID\tTRANSPORT\tAUTH\tENABLED\tTIMEOUT\tTOOLS\tURL")
	for _, m := range list {
		auth := m.AuthType
		if m.AuthType == mcpservers.AuthHeader {
			auth += " " + m.AuthHeader
		}
		if m.HasSecret {
			auth += " (secret set)"
		}
		tools := strings.Join(m.AllowedTools, ",")
		if tools == "" {
			tools = "all"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%s\t%s\t%s\n", m.Name, m.ID, m.Transport, auth, m.Enabled, m.Timeout(), tools, m.URL)
	}
	return tw.Flush()
}

// describeEnrichment says whether enrichment is on, and with which servers.
func describeEnrichment(s mcpservers.Settings, list []mcpservers.Server) string {
	if !s.ToolMCP {
		return "off"
	}
	if len(s.ToolMCPServers) == 0 {
		return "on, every enabled server"
	}
	var names []string
	for _, m := range list {
		if slices.Contains(s.ToolMCPServers, m.ID) {
			names = append(names, m.Name)
		}
	}
	return "on, " + strings.Join(names, ", ")
}

func (e serversEnv) remove(ctx context.Context, args []string) error {
	fs, user := serversFlags("remove")
	u, err := e.parse(ctx, fs, user, args, 1)
	if err != nil {
		return err
	}
	m, err := e.find(ctx, u, fs.Arg(0))
	if err != nil {
		return err
	}
	if err := e.reg.Delete(ctx, u.ID, m.ID); err != nil {
		return err
	}
	fmt.Fprintf(e.out, "removed %s (%s)\n", m.Name, m.ID)
	return nil
}

func (e serversEnv) enrich(ctx context.Context, args []string) error {
	fs, user := serversFlags("enrich")
	only := fs.String("only", "", "comma-separated servers to call (default: every enabled server)")
	u, err := e.parse(ctx, fs, user, args, 1)
	if err != nil {
		return err
	}
	var set mcpservers.Settings
	switch fs.Arg(0) {
	case "on":
		set.ToolMCP = true
	case "off":
	default:
		return fmt.Errorf("want on or off, not %q", fs.Arg(0))
	}
	for _, s := range splitCommaList(*only) {
		m, err := e.find(ctx, u, s)
		if err != nil {
			return err
		}
		set.ToolMCPServers = append(set.ToolMCPServers, m.ID)
	}
	if err := e.reg.SetSettings(ctx, u.ID, set); err != nil {
		return err
	}
	list, err := e.reg.List(ctx, u.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.out, "enrichment for %s: %s\n", u.Name, describeEnrichment(set, list))
	return nil
}

func (e serversEnv) tools(ctx context.Context, args []string) error {
	fs, user := serversFlags("tools")
	u, err := e.parse(ctx, fs, user, args, 1)
	if err != nil {
		return err
	}
	m, err := e.find(ctx, u, fs.Arg(0))
	if err != nil {
		return err
	}
	srv, err := e.withSecret(ctx, u, m)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, srv.Timeout())
	defer cancel()
	tools, err := listUserServerTools(ctx, e.reg.Guard, srv)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tMODEL SEES IT\tDESCRIPTION")
	for _, t := range tools {
		sees := m.Enabled && (len(m.AllowedTools) == 0 || slices.Contains(m.AllowedTools, t.Name))
		desc, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n")
		fmt.Fprintf(tw, "%s\t%v\t%s\n", t.Name, sees, desc)
	}
	return tw.Flush()
}

// withSecret returns a server with its secret opened; a disabled server
// has none to open, since only enabled ones are handed out with secrets.
func (e serversEnv) withSecret(ctx context.Context, u accounts.User, m mcpservers.Server) (mcpservers.WithSecret, error) {
	if !m.Enabled {
		if m.HasSecret {
			return mcpservers.WithSecret{}, fmt.Errorf("%s is disabled; enable it to list its tools", m.Name)
		}
		return mcpservers.WithSecret{Server: m}, nil
	}
	enabled, err := e.reg.Enabled(ctx, u.ID)
	if err != nil {
		return mcpservers.WithSecret{}, err
	}
	i := slices.IndexFunc(enabled, func(s mcpservers.WithSecret) bool { return s.ID == m.ID })
	if i < 0 {
		return mcpservers.WithSecret{}, fmt.Errorf("the secret of %s does not open: was TRIPGRAPH_SECRET_KEY changed?", m.Name)
	}
	return enabled[i], nil
}

// listUserServerTools connects to a user's server through the SSRF guard,
// with its credential, and lists its tools. It talks to the go-sdk client
// directly; once the MCP bridge lands, this is the one function to replace
// with the bridge's tool listing.
func listUserServerTools(ctx context.Context, guard *netguard.Guard, srv mcpservers.WithSecret) ([]*mcp.Tool, error) {
	httpClient := guard.NewHTTPClient()
	if headers := srv.Headers(); headers != nil {
		u, err := url.Parse(srv.URL)
		if err != nil {
			return nil, fmt.Errorf("reading the URL of %s: %w", srv.Name, err)
		}
		httpClient.Transport = serverCredential{base: httpClient.Transport, host: u.Host, headers: headers}
	}
	var transport mcp.Transport = &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: httpClient, MaxRetries: -1, DisableStandaloneSSE: true}
	if srv.Transport == mcpservers.TransportSSE {
		transport = &mcp.SSEClientTransport{Endpoint: srv.URL, HTTPClient: httpClient}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "tripgraph", Version: "dev"}, nil)
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", srv.Name, err)
	}
	defer session.Close()
	var tools []*mcp.Tool
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the tools of %s: %w", srv.Name, err)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// serverCredential adds a server's credential to requests for its own host only,
// so that a redirect elsewhere does not carry it away.
type serverCredential struct {
	base    http.RoundTripper
	host    string
	headers map[string]string
}

// RoundTrip adds the credential when the request goes to the server's host.
func (c serverCredential) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.EqualFold(r.URL.Host, c.host) {
		r = r.Clone(r.Context())
		for k, v := range c.headers {
			r.Header.Set(k, v)
		}
	}
	return c.base.RoundTrip(r)
}

// splitCommaList splits a comma-separated flag value, dropping blanks.
func splitCommaList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
