package mcpserver

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// The limits are constants, but the schemas that tell clients about them
// are struct tags: every schema must state the constants' values.
func TestSchemasStateTheLimits(t *testing.T) {
	cs := connect(t, Config{})
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	limits := map[string][]int{
		"startDate": {MaxDaysAhead}, "endDate": {MaxNights}, "guests": {1, MaxGuests},
		"limit": {DefaultLimit, MaxLimit}, "name": {MaxTermLen}, "query": {MaxTermLen},
	}
	checked := 0
	for _, tool := range tools.Tools {
		var schema struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		raw, _ := json.Marshal(tool.InputSchema)
		json.Unmarshal(raw, &schema)
		for prop, values := range limits {
			p, ok := schema.Properties[prop]
			if !ok || (prop == "name" && tool.Name != "getAlbumByName") {
				continue
			}
			checked++
			for _, v := range values {
				if !strings.Contains(p.Description, strconv.Itoa(v)) {
					t.Errorf("%s.%s says %q, not the limit %d", tool.Name, prop, p.Description, v)
				}
			}
		}
	}
	if checked < 12 {
		t.Errorf("only %d limited arguments found in the schemas", checked)
	}
}
