package graph

import (
	"fmt"
	"strings"
)

// DefaultStepLimit is how many nodes a run may execute when RunConfig does
// not say.
const DefaultStepLimit = 25

// StepLimitError is returned when a run would execute more nodes than its
// step limit allows.
type StepLimitError struct {
	Limit int
	Next  string // the node that would have run
}

func (e *StepLimitError) Error() string {
	return fmt.Sprintf("step limit of %d reached before node %q ran", e.Limit, e.Next)
}

// NodeError is a node's failure, including a panic (Err is then a
// *PanicError).
type NodeError struct {
	Node string
	Err  error
}

func (e *NodeError) Error() string { return fmt.Sprintf("node %q: %v", e.Node, e.Err) }
func (e *NodeError) Unwrap() error { return e.Err }

// PanicError carries a recovered panic and the stack where it happened.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// RouteError is returned when a router picks a target it did not declare.
type RouteError struct {
	From    string
	Target  string
	Targets []string
}

func (e *RouteError) Error() string {
	return fmt.Sprintf("router of %q returned %q, which is not one of its declared targets [%s]",
		e.From, e.Target, strings.Join(e.Targets, ", "))
}
