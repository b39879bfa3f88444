package graph_test

import (
	"testing"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/graph/checkpointtest"
)

func TestMemorySaverBehaviour(t *testing.T) {
	checkpointtest.Run(t, func(*testing.T) graph.Checkpointer { return graph.NewMemorySaver() })
}
