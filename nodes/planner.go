package nodes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/graph"
)

// GraphID names the trip planner graph to clients: its assistant and the
// runs and streams of its threads carry it.
const GraphID = "trip-planner"

// Node names of the trip planner graph.
const (
	NodeClassify   = "classify"
	NodeExtraction = "extraction"
	NodeCallTools  = "callTools"
)

// MaxToolSteps is how many model calls callTools may make in one turn:
// enough to find an album and then read it, few enough that a model which
// keeps calling tools cannot stall the turn.
const MaxToolSteps = 5

// Deps is what the planner needs from outside, the same for every
// traveller (whose part is a Traveller).
type Deps struct {
	Model llms.Model
	Now   func() time.Time // the clock; time.Now when nil
	// Around, when set, wraps every node as the graph is built: what runs
	// around each node of every run (telemetry.Node, its span).
	Around func(node string, fn func(context.Context, State) (Update, error)) func(context.Context, State) (Update, error)
}

// Graph is the compiled trip planner.
type Graph = graph.Compiled[State, Update]

// Build compiles the trip planner graph; For binds it to a traveller.
func Build(d Deps) (*Planner, error) {
	if d.Model == nil {
		return nil, errors.New("building the trip planner: a model is required")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	p := &planner{Deps: d}
	g := graph.New(Reduce)
	g.AddNode(NodeClassify, p.around(NodeClassify, p.settling(p.classify)))
	g.AddNode(NodeExtraction, p.around(NodeExtraction, p.settling(p.extraction)))
	g.AddNode(NodeCallTools, p.around(NodeCallTools, p.settling(p.callTools)))
	g.AddConditionalEdges(graph.START, RouteStart, NodeClassify, NodeExtraction, NodeCallTools)
	g.AddConditionalEdges(NodeClassify, RouteAfterClassifying, NodeExtraction, NodeCallTools)
	g.AddConditionalEdges(NodeExtraction, RouteAfterExtraction, NodeCallTools, graph.END)
	g.AddEdge(NodeCallTools, graph.END)
	compiled, err := g.Compile(nil)
	if err != nil {
		return nil, err
	}
	return &Planner{g: compiled}, nil
}

// RouteStart sends a booking request straight to callTools, a thread with
// known trip details to classify, to check they still hold, and any other
// to extraction.
func RouteStart(s State) string {
	if s.BookingRequest != nil {
		return NodeCallTools
	}
	if s.TripDetails == nil {
		return NodeExtraction
	}
	return NodeClassify
}

// RouteAfterClassifying re-extracts when classify cleared the trip details.
func RouteAfterClassifying(s State) string {
	if s.TripDetails == nil {
		return NodeExtraction
	}
	return NodeCallTools
}

// RouteAfterExtraction calls the tools once the trip is known, or at once
// for a question about the traveller's photos or one the tools cannot
// serve, which need no destination. Otherwise extraction has asked a
// question and the run ends.
func RouteAfterExtraction(s State) string {
	if s.TripDetails != nil || s.Intent == IntentPhotos || s.Intent == IntentOther {
		return NodeCallTools
	}
	return graph.END
}

// planner holds the nodes' dependencies.
type planner struct {
	Deps
}

var validate = validator.New(validator.WithRequiredStructEnabled())

// around is node wrapped by Deps.Around, or node itself.
func (p *planner) around(name string, node func(context.Context, State) (Update, error)) func(context.Context, State) (Update, error) {
	if p.Around == nil {
		return node
	}
	return p.Around(name, node)
}

func (p *planner) today() time.Time {
	y, m, d := p.Now().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func (p *planner) stamp() int64 { return p.Now().UnixMilli() }

// conversation is the system prompt followed by the state's messages.
func conversation(systemPrompt string, s State) []llms.MessageContent {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, systemPrompt)}
	for _, m := range s.Messages {
		role := llms.ChatMessageTypeHuman
		if m.Type == AI {
			role = llms.ChatMessageTypeAI
		}
		msgs = append(msgs, llms.TextParts(role, m.Content))
	}
	return msgs
}

// forcedCall asks the model to call one tool and returns its arguments.
func (p *planner) forcedCall(ctx context.Context, msgs []llms.MessageContent, name, description string, schema any) (string, error) {
	tool := llms.Tool{Type: "function", Function: &llms.FunctionDefinition{Name: name, Description: description, Parameters: schema}}
	resp, err := p.Model.GenerateContent(ctx, msgs,
		llms.WithTools([]llms.Tool{tool}),
		llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: name}}))
	if err != nil {
		return "", fmt.Errorf("asking the model to call %s: %w", name, err)
	}
	for _, c := range resp.Choices {
		for _, tc := range c.ToolCalls {
			if tc.FunctionCall != nil && tc.FunctionCall.Name == name {
				return tc.FunctionCall.Arguments, nil
			}
		}
	}
	return "", fmt.Errorf("the model did not call %s", name)
}

// messageID is the id of the message a node writes in its step. Within a
// run it is derived from the run, the step and the node, so that a step
// run again (its worker died before the step was saved) writes the same
// message, which a stream that already carried part of it shows once;
// outside a run it is random.
func messageID(ctx context.Context) string {
	info, ok := graph.Info(ctx)
	if !ok || info.RunID == "" {
		return uuid.Must(uuid.NewV7()).String()
	}
	return uuid.NewSHA1(messageIDSpace, fmt.Appendf(nil, "%s/%d/%s", info.RunID, info.Step, info.Node)).String()
}

// messageIDSpace is the UUID namespace of messageID's ids.
var messageIDSpace = uuid.MustParse("5c0e7a52-3f1d-4d8e-9a57-6b1f0c2d9e41")
