package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
	"github.com/tripgraph/tripgraph/ui"
)

func init() {
	register(command{
		name:    "replay",
		summary: "print a saved thread step by step from the database: replay THREAD [--checkpoint ID]",
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return replayCommand(ctx, cfg, args, os.Stdout)
		},
	})
}

// replayCommand reads a thread's checkpoints from PostgreSQL, whoever owns
// it (it is an operator's command), and prints them. Nothing calls the
// model or the tools.
func replayCommand(ctx context.Context, cfg config.Config, args []string, w io.Writer) error {
	thread, checkpoint, err := replayArgs(args)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	return printReplay(ctx, st.Checkpoints, thread, checkpoint, w)
}

// replayArgs reads THREAD and --checkpoint, in either order.
func replayArgs(args []string) (thread, checkpoint string, err error) {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	cp := fs.String("checkpoint", "", "show the conversation at this checkpoint (default: the newest)")
	if err := fs.Parse(args); err != nil {
		return "", "", err
	}
	rest := fs.Args()
	if len(rest) > 0 {
		thread = rest[0]
		if err := fs.Parse(rest[1:]); err != nil {
			return "", "", err
		}
	}
	if thread == "" || fs.NArg() > 0 {
		return "", "", errors.New("usage: tripgraph replay THREAD [--checkpoint ID]")
	}
	return thread, *cp, nil
}

// printReplay prints a thread's checkpoints, newest first, each with its
// step, node, time and what changed (the words the timeline uses), then
// the conversation as it was at the chosen checkpoint (the newest when
// checkpoint is "").
func printReplay(ctx context.Context, cps graph.Checkpointer, thread, checkpoint string, w io.Writer) error {
	list, err := cps.List(ctx, thread, graph.ListOptions{})
	if err != nil {
		return fmt.Errorf("reading the checkpoints of thread %s: %w", thread, err)
	}
	if len(list) == 0 {
		return errcode.New(errcode.NotFound, "thread %s has no checkpoint", thread)
	}
	steps, err := replay.Steps(list)
	if err != nil {
		return err
	}
	selected := steps[0]
	if checkpoint != "" {
		var ok bool
		if selected, ok = replay.At(steps, checkpoint); !ok {
			return errcode.New(errcode.NotFound, "thread %s has no checkpoint %s", thread, checkpoint)
		}
	}
	en := ui.WithLanguage(ctx, locale.English)
	fmt.Fprintf(w, "thread %s: %d checkpoints, newest first\n", thread, len(steps))
	for _, s := range steps {
		mark := " "
		if s.CheckpointID == selected.CheckpointID {
			mark = "▶"
		}
		node := s.Node // the terminal names the graph's nodes as they are
		if node == "" {
			node = ui.StepNode(en, s)
		}
		fmt.Fprintf(w, "%s step %-3d %-12s %s  %s\n", mark, s.Step, node, s.CreatedAt.UTC().Format("2006-01-02 15:04:05.000"), s.CheckpointID)
		fmt.Fprintf(w, "      %s\n", strings.Join(ui.StepSummary(en, s), "; "))
	}
	fmt.Fprintf(w, "\nconversation at step %d (checkpoint %s):\n", selected.Step, selected.CheckpointID)
	printConversation(w, selected.WithPending())
	return nil
}

// printConversation prints each message with the components attached to
// it, and then any component of no message.
func printConversation(w io.Writer, s nodes.State) {
	shown := make(map[string]bool, len(s.UI))
	for _, m := range s.Messages {
		who := "assistant"
		if m.Type == nodes.Human {
			who = "you"
		}
		fmt.Fprintf(w, "%s: %s\n", who, m.Content)
		for _, c := range s.UI {
			if c.MessageID == m.ID {
				fmt.Fprint(w, renderComponent(c))
				shown[c.ID] = true
			}
		}
	}
	for _, c := range s.UI {
		if !shown[c.ID] {
			fmt.Fprint(w, renderComponent(c))
		}
	}
}
