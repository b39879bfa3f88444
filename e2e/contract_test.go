// Package e2e holds tests that cross package boundaries.
package e2e

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/nodes"
)

// Every field an MCP tool returns reaches the component that shows it: a
// tool result, filled in completely, decoded into the component's props and
// encoded again, keeps every field (but the few the components do not show).
func TestToolResultsFitComponents(t *testing.T) {
	tests := []struct {
		tool   string
		result any
		props  any
		unused []string // result fields no component shows
	}{
		{"list-accommodations", &mcpserver.ListAccommodationsOut{}, &nodes.AccommodationsListProps{}, []string{"city"}},
		{"list-restaurants", &mcpserver.ListRestaurantsOut{}, &nodes.RestaurantsListProps{}, nil},
		{"getUserAlbums", &mcpserver.AlbumsOut{}, &nodes.AlbumListProps{}, nil},
		{"getAlbumPhotos", &mcpserver.AlbumPhotosOut{}, &nodes.PhotoGridProps{}, nil},
		{"getPhotosByDate", &mcpserver.PhotosByDateOut{}, &nodes.PhotoGridProps{}, nil},
		{"getPhotosByLocation", &mcpserver.PhotosByLocationOut{}, &nodes.PhotoGridProps{}, nil},
		{"searchPhotosAcrossAlbums", &mcpserver.SearchPhotosOut{}, &nodes.PhotoGridProps{}, nil},
		{"getTripStats", &mcpserver.TripStatsOut{}, &nodes.TripStatsProps{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			fill(reflect.ValueOf(tt.result).Elem())
			sent, _ := json.Marshal(tt.result)
			if err := json.Unmarshal(sent, tt.props); err != nil {
				t.Fatalf("the %s result does not decode into %T: %v", tt.tool, tt.props, err)
			}
			shown, _ := json.Marshal(tt.props)
			var want, got any
			json.Unmarshal(sent, &want)
			json.Unmarshal(shown, &got)
			missing(t, "", want, got, tt.unused)
		})
	}
}

// missing reports every field of want that got lacks or holds differently.
func missing(t *testing.T, path string, want, got any, unused []string) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		for k, v := range w {
			if contains(unused, k) {
				continue
			}
			gv, ok := g[k]
			if !ok {
				t.Errorf("field %s%s is returned by the tool but lost by the component", path, k)
				continue
			}
			missing(t, path+k+".", v, gv, unused)
		}
	case []any:
		g, _ := got.([]any)
		if len(g) != len(w) {
			t.Errorf("list %s has %d items in the result and %d in the props", path, len(w), len(g))
			return
		}
		for i := range w {
			missing(t, path, w[i], g[i], unused)
		}
	default:
		if !reflect.DeepEqual(want, got) {
			t.Errorf("field %s is %v in the result but %v in the props", path, want, got)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fill sets every field of v to a non-zero value, with one element in each
// slice, so that no field is left out of the encoding by omitempty.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Float64, reflect.Float32:
		v.SetFloat(1.5)
	}
}
