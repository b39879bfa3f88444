package wire

import (
	"errors"
	"fmt"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// GraphRecursionError is LangGraph's name for a run that reached its
// recursion limit, which its clients and test suites match.
const GraphRecursionError = "GraphRecursionError"

// FailureOf is what a failed run tells its clients, in its stream's error
// event and in what /wait and /join answer: LangGraph's error name and
// message where LangGraph has one (a recursion limit), the code and
// message of an error written to be shown, and otherwise which node
// failed, with the cause left to the server's log.
func FailureOf(err error) StreamError {
	var limit *graph.StepLimitError
	if errors.As(err, &limit) {
		return StreamError{Error: GraphRecursionError, Message: fmt.Sprintf(
			"Recursion limit of %d reached without hitting a stop condition. You can increase the limit by setting the \"recursion_limit\" config key.", limit.Limit)}
	}
	if code := errcode.Of(err); code != errcode.Internal {
		return StreamError{Error: string(code), Message: errcode.Message(err)}
	}
	var node *graph.NodeError
	if errors.As(err, &node) {
		return StreamError{Error: string(errcode.Internal), Message: fmt.Sprintf("node %q failed; the server's log has the cause, under the run's id", node.Node)}
	}
	return StreamError{Error: string(errcode.Internal), Message: "the run failed outside its nodes; the server's log has the cause, under the run's id"}
}
