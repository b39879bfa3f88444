// Command durable runs the checkpoint package's durability test graph in a
// process of its own, so that the test can kill it with SIGKILL.
//
// It runs the conversation turns 1..-turns on a thread with the Postgres
// checkpointer, printing "committed <id>" once each checkpoint's
// transaction has committed. In the turn -block, the tool node prints
// "blocked" and waits forever. With -resume it instead continues the
// thread from its latest checkpoint and prints "done <messages>".
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store/checkpoint"
)

type message struct {
	ID      string `json:"id"`
	Role    string `json:"role"`
	Content string `json:"content"`
}

type state struct {
	Messages  []message `json:"messages"`
	Timestamp time.Time `json:"timestamp"`
	Route     string    `json:"route,omitempty"`
}

type update struct {
	Messages  []message  `json:"messages,omitempty"`
	Timestamp *time.Time `json:"timestamp,omitempty"`
	Route     string     `json:"route,omitempty"`
}

func reduce(s state, u update) state {
	s.Messages = append(slices.Clip(s.Messages), u.Messages...)
	if u.Timestamp != nil {
		s.Timestamp = *u.Timestamp
	}
	if u.Route != "" {
		s.Route = u.Route
	}
	return s
}

// printer reports each committed checkpoint on stdout.
type printer struct{ graph.Checkpointer }

func (p printer) Put(ctx context.Context, cp graph.Checkpoint, head string) error {
	if err := p.Checkpointer.Put(ctx, cp, head); err != nil {
		return err
	}
	fmt.Printf("committed %s\n", cp.ID)
	return nil
}

func main() {
	db := flag.String("db", "", "database URL")
	thread := flag.String("thread", "", "thread id")
	turns := flag.Int("turns", 3, "turns to run")
	block := flag.Int("block", 0, "turn whose tool node blocks forever (0: none)")
	resume := flag.Bool("resume", false, "resume the thread instead")
	flag.Parse()
	if err := run(context.Background(), *db, *thread, *turns, *block, *resume); err != nil {
		fmt.Fprintln(os.Stderr, "durable:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, db, thread string, turns, block int, resume bool) error {
	pool, err := pgxpool.New(ctx, db)
	if err != nil {
		return err
	}
	defer pool.Close()
	g, err := build(printer{checkpoint.New(pool, checkpoint.Options{})}, block)
	if err != nil {
		return err
	}
	if resume {
		final, err := g.Invoke(ctx, graph.RunConfig[update]{ThreadID: thread, Resume: true})
		if err != nil {
			return err
		}
		fmt.Printf("done %d\n", len(final.Messages))
		return nil
	}
	for turn := 1; turn <= turns; turn++ {
		in := update{Messages: []message{{ID: fmt.Sprintf("h%d", turn), Role: "human", Content: fmt.Sprintf("turn %d", turn)}}}
		if _, err := g.Invoke(ctx, graph.RunConfig[update]{ThreadID: thread, Input: in}); err != nil {
			return err
		}
	}
	return nil
}

// build makes route → classify | extraction → tools → END.
func build(cp graph.Checkpointer, block int) (*graph.Compiled[state, update], error) {
	now := func() *time.Time { t := time.Now().UTC(); return &t }
	g := graph.New(reduce)
	g.AddNode("route", func(context.Context, state) (update, error) { return update{Timestamp: now()}, nil })
	g.AddNode("classify", func(context.Context, state) (update, error) { return update{Route: "classify", Timestamp: now()}, nil })
	g.AddNode("extraction", func(context.Context, state) (update, error) {
		return update{Route: "extraction", Timestamp: now()}, nil
	})
	g.AddNode("tools", func(ctx context.Context, s state) (update, error) {
		humans := 0
		for _, m := range s.Messages {
			if m.Role == "human" {
				humans++
			}
		}
		if humans == block {
			fmt.Println("blocked")
			<-ctx.Done() // until killed
			return update{}, ctx.Err()
		}
		out, _ := json.Marshal(map[string]int{"turn": humans})
		return update{Messages: []message{{ID: fmt.Sprintf("t%d", humans), Role: "tool", Content: string(out)}}, Timestamp: now()}, nil
	})
	g.AddEdge(graph.START, "route")
	g.AddConditionalEdges("route", func(s state) string {
		if len(s.Messages)%2 == 0 {
			return "classify"
		}
		return "extraction"
	}, "classify", "extraction")
	g.AddEdge("classify", "tools")
	g.AddEdge("extraction", "tools")
	g.AddEdge("tools", graph.END)
	return g.Compile(cp)
}
