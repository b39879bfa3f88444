package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/demotools"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/nodes"
)

func init() {
	register(command{
		name:    "run",
		summary: `run a conversation through the planner in memory: run [--json] "message" ["next message" …]`,
		run:     func(ctx context.Context, args []string) error { return runConversation(ctx, args, os.Stdout) },
	})
}

// runConversation runs each argument as one turn of a conversation, on the
// configured model (offline by default), the in-memory checkpointer and the
// in-memory demo tools: no database is needed.
func runConversation(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the events as JSON lines")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New(`give at least one message, e.g. tripgraph run "4 nights in Lisbon in May, 3 of us"`)
	}
	m, err := model.New(ctx, os.Getenv("TRIPGRAPH_MODEL"))
	if err != nil {
		return err
	}
	g, err := nodes.Build(nodes.Deps{Model: m, Tools: demotools.New()}, graph.NewMemorySaver())
	if err != nil {
		return err
	}
	thread := uuid.Must(uuid.NewV7()).String()
	var said []chatinput.Message
	for _, text := range fs.Args() {
		clean, err := chatinput.Clean(append(said, chatinput.Message{Role: chatinput.RoleUser, Content: text}))
		if err != nil {
			if err := reportRefused(w, text, err, *asJSON); err != nil {
				return err
			}
			continue // the refused message is not part of the conversation
		}
		said = append(said, chatinput.Message{Role: chatinput.RoleUser, Content: text})
		text = clean[len(clean)-1].Content
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
