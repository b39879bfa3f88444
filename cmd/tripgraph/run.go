package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/server/tenant"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/mcpserver/memory"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
)

func init() {
	register(command{
		name:    "run",
		summary: `run a conversation through the planner: run [--json] [--db [--thread ID]] "message" ["next message" …]`,
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return runConversation(ctx, cfg, args, os.Stdout)
		},
	})
}

// runConversation runs each argument as one turn of a conversation on the
// configured model (offline by default).
//
// With --db it uses PostgreSQL: the seeded catalog, the PostgreSQL
// checkpointer and the demo user, with the tools of mcpserver served in
// process and reached through the MCP bridge; it prints the thread id, and
// --thread continues that thread.
//
// Without --db nothing needs a database: the same tool server runs on its
// in-memory backend, built from the data tripgraph seed stores, and is
// reached through the MCP bridge all the same.
func runConversation(ctx context.Context, cfg config.Config, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the events as JSON lines")
	useDB := fs.Bool("db", false, "use PostgreSQL: the seeded catalog, the PostgreSQL checkpointer and the demo user, with the MCP tools through the bridge")
	threadID := fs.String("thread", "", "continue this thread (with --db)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New(`give at least one message, e.g. tripgraph run "4 nights in Lisbon in May, 3 of us"`)
	}
	if *threadID != "" && !*useDB {
		return errors.New("--thread needs --db: threads are kept only in PostgreSQL")
	}
	m, err := modelConfig(cfg.Model).Open(ctx)
	if err != nil {
		return err
	}
	var g *nodes.Graph
	thread := uuid.Must(uuid.NewV7()).String()
	if *useDB {
		var done func()
		ctx, g, thread, done, err = dbPlanner(ctx, cfg, m, *threadID)
		if err != nil {
			return err
		}
		defer done()
		out := w
		if *asJSON {
			out = os.Stderr // stdout holds only the JSON events
		}
		fmt.Fprintf(out, "thread: %s\n", thread)
	} else {
		var done func()
		ctx, g, done, err = memoryPlanner(ctx, m)
		if err != nil {
			return err
		}
		defer done()
	}
	var said []chatinput.Message
	for _, text := range fs.Args() {
		clean, err := chatinput.CheckAdded(said, []chatinput.Message{{Role: chatinput.RoleUser, Content: text}})
		if err == nil && len(clean) == 0 {
			err = errcode.New(errcode.BadRequest, "the message is empty")
		}
		if err != nil {
			if err := reportRefused(w, text, err, *asJSON); err != nil {
				return err
			}
			continue // the refused message is not part of the conversation
		}
		said = append(said, clean[0])
		text = clean[0].Content
		if !*asJSON {
			fmt.Fprintf(w, "you: %s\n", text)
		}
		answer, err := runTurn(ctx, g, thread, text, w, *asJSON)
		if err != nil {
			return err
		}
		said = append(said, chatinput.Message{Role: chatinput.RoleAssistant, Content: answer})
	}
	return nil
}

// reportRefused says that a message was refused and why; the
// conversation goes on without it.
func reportRefused(w io.Writer, text string, reason error, asJSON bool) error {
	if asJSON {
		ev := map[string]string{"event": "refused", "code": string(errcode.Of(reason)), "message": reason.Error()}
		if err := json.NewEncoder(w).Encode(ev); err != nil {
			return fmt.Errorf("writing a refusal: %w", err)
		}
		return nil
	}
	_, err := fmt.Fprintf(w, "you: %s\nrefused: %v\n\n", text, reason)
	return err
}

// dbPlanner builds the planner on PostgreSQL for the demo user: it seeds
// an empty catalog, opens or creates the thread, and returns a context
// that acts as the demo user and a function that closes everything.
func dbPlanner(ctx context.Context, cfg config.Config, m llms.Model, threadID string) (context.Context, *nodes.Graph, string, func(), error) {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	env, err := openServing(ctx, cfg, log, 0)
	if err != nil {
		return nil, nil, "", nil, err
	}
	fail := func(err error) (context.Context, *nodes.Graph, string, func(), error) {
		env.st.Close()
		return nil, nil, "", nil, err
	}
	if err := seedIfEmpty(ctx, env.st, log); err != nil {
		return fail(err)
	}
	demo, err := env.st.Accounts.UserByName(ctx, "demo")
	if err != nil {
		return fail(fmt.Errorf("finding the demo user: %w", err))
	}
	var thread store.Thread
	if threadID != "" {
		thread, err = env.st.ForOwner(demo.ID).Thread(ctx, threadID)
	} else {
		thread, err = env.st.ForOwner(demo.ID).CreateThread(ctx, store.NewThread{})
	}
	if err != nil {
		return fail(err)
	}
	reg, err := userRegistry(env.st, cfg.Servers)
	if err != nil {
		return fail(err)
	}
	planner, bridge, err := newPlanner(ctx, m, env, reg, orDefault(cfg.HTTP.PublicURL, "http://"+cfg.HTTP.Addr), log)
	if err != nil {
		return fail(err)
	}
	done := func() {
		bridge.Close()
		env.st.Close()
	}
	tenants := tenant.Factory{Records: tenant.OnPostgres(env.st, reg), Planner: planner, Tools: tenant.Bridge(bridge)}
	return ctx, tenants.For(demo.ID).Planner, thread.ID, done, nil
}

// demoUser is the user a conversation without a database acts as.
const demoUser = "demo"

// memoryPlanner builds the planner with no database, acting as the demo
// user, and returns a function that closes it.
func memoryPlanner(ctx context.Context, m llms.Model) (context.Context, *nodes.Graph, func(), error) {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := mcpserver.Config{
		Backend: memory.NewDemo(catalogCities(catalogSize), demoUser),
		Resolve: resolvePlace,
		Logger:  log,
		// No server answers photo links here: the tools say so.
		LinksNote: "photo links are off in tripgraph run; tripgraph serve shows the photos",
	}
	planner, bridge, err := newMemoryPlanner(m, cfg, log)
	if err != nil {
		return nil, nil, nil, err
	}
	g := planner.For(nodes.Traveller{Tools: bridge.For(mcpbridge.User{ID: demoUser})}, graph.NewMemorySaver())
	return ctx, g, func() { bridge.Close() }, nil
}

// runTurn runs one message and prints its events; it returns the answer.
func runTurn(ctx context.Context, g *nodes.Graph, thread, text string, w io.Writer, asJSON bool) (string, error) {
	input := nodes.Update{Messages: []nodes.Message{{ID: uuid.Must(uuid.NewV7()).String(), Type: nodes.Human, Content: text}}}
	printer := &textPrinter{w: w}
	enc := json.NewEncoder(w)
	answer := ""
	for ev, err := range g.Run(ctx, graph.RunConfig[nodes.Update]{ThreadID: thread, Input: input}) {
		if asJSON {
			if err := enc.Encode(toJSONEvent(ev)); err != nil {
				return "", fmt.Errorf("writing an event: %w", err)
			}
		} else {
			printer.event(ev)
		}
		if err != nil {
			return "", err
		}
		if ev.Kind == graph.RunFinished && len(ev.State.Messages) > 0 {
			answer = ev.State.Messages[len(ev.State.Messages)-1].Content
		}
	}
	if !asJSON {
		fmt.Fprintln(w)
	}
	return answer, nil
}
