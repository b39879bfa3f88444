package mcpbridge

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The enricher calls only tools that take the message text as their one
// required argument.
func TestTextArgument(t *testing.T) {
	str := map[string]any{"type": "string"}
	tests := []struct {
		name   string
		schema any
		want   string
	}{
		{"query", map[string]any{"type": "object", "properties": map[string]any{"query": str}, "required": []any{"query"}}, "query"},
		{"q with an optional other", map[string]any{"type": "object", "properties": map[string]any{"q": str, "limit": map[string]any{"type": "integer"}}, "required": []any{"q"}}, "q"},
		{"text not required", map[string]any{"type": "object", "properties": map[string]any{"text": str}}, ""},
		{"two required", map[string]any{"type": "object", "properties": map[string]any{"query": str, "id": str}, "required": []any{"query", "id"}}, ""},
		{"another name", map[string]any{"type": "object", "properties": map[string]any{"id": str}, "required": []any{"id"}}, ""},
		{"not a string", map[string]any{"type": "object", "properties": map[string]any{"query": map[string]any{"type": "integer"}}, "required": []any{"query"}}, ""},
		{"no schema", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := textArgument(&mcp.Tool{Name: "t", InputSchema: tt.schema})
			if got != tt.want || ok != (tt.want != "") {
				t.Fatalf("textArgument = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}
