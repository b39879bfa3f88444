package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/internal/wire"
)

// openAPI serves the OpenAPI 3.1 description of the registered routes.
func (s *Server) openAPI(c echo.Context) error {
	return c.JSON(http.StatusOK, s.openAPIDocument())
}

// pathParam matches an echo path parameter.
var pathParam = regexp.MustCompile(`:([A-Za-z_]+)`)

// openAPIPath turns an echo path into an OpenAPI one: ":id" becomes "{id}"
// and a trailing "*" the "{path}" parameter.
func openAPIPath(p string) string {
	p = pathParam.ReplaceAllString(p, "{$1}")
	if strings.HasSuffix(p, "*") {
		p = strings.TrimSuffix(p, "*") + "{path}"
	}
	return p
}

// openAPIDocument describes every route in s.routes: the list routes are
// registered from, so the two cannot differ.
func (s *Server) openAPIDocument() map[string]any {
	paths := map[string]map[string]any{}
	for _, r := range s.routes {
		p := openAPIPath(r.path)
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(r.method)] = operation(r, p)
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "tripgraph", "version": "1",
			"description": "The trip planner's REST API, compatible with the LangGraph server API's official clients."},
		"paths": paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{
				"apiKey": map[string]any{"type": "apiKey", "in": "header", "name": "x-api-key"},
				"bearer": map[string]any{"type": "http", "scheme": "bearer"},
			},
			"schemas": map[string]any{"Error": schemaOf(reflect.TypeOf(wire.Error{}), false)},
		},
	}
}

func operation(r route, path string) map[string]any {
	op := map[string]any{"summary": r.summary, "operationId": strings.ToLower(r.method) + operationName(path)}
	var params []map[string]any
	for _, m := range regexp.MustCompile(`\{([A-Za-z_]+)\}`).FindAllStringSubmatch(path, -1) {
		params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
	}
	for _, q := range r.query {
		params = append(params, map[string]any{"name": q, "in": "query", "schema": map[string]any{"type": "string"}})
	}
	if params != nil {
		op["parameters"] = params
	}
	if r.body != nil {
		op["requestBody"] = map[string]any{"content": map[string]any{
			"application/json": map[string]any{"schema": schemaOf(reflect.TypeOf(r.body), true)}}}
	}
	status := r.status
	if status == 0 {
		status = http.StatusOK
	}
	ok := map[string]any{"description": http.StatusText(status)}
	if r.response != nil {
		ok["content"] = map[string]any{"application/json": map[string]any{"schema": schemaOf(reflect.TypeOf(r.response), false)}}
	}
	op["responses"] = map[string]any{
		strconv.Itoa(status): ok,
		"default": map[string]any{"description": "An error", "content": map[string]any{
			"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}},
	}
	switch {
	case r.mounted:
		op["description"] = "Served by its own handler, with its own authentication."
	case !r.public:
		op["security"] = []map[string]any{{"apiKey": []string{}}, {"bearer": []string{}}}
	}
	return op
}

// operationName makes an operation id from a path.
func operationName(path string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '{' || r == '}' || r == '_' || r == '.' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

var (
	rawJSON  = reflect.TypeOf(json.RawMessage{})
	timeType = reflect.TypeOf(time.Time{})
)

// schemaOf is the JSON Schema of a wire type. Request bodies refuse
// members they do not declare, as the server does.
func schemaOf(t reflect.Type, strict bool) map[string]any {
	switch {
	case t == rawJSON:
		return map[string]any{}
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem(), strict)
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem(), strict)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem(), strict)}
	case reflect.Struct:
		props := map[string]any{}
		for i := range t.NumField() {
			if name := jsonName(t.Field(i)); name != "" {
				props[name] = schemaOf(t.Field(i).Type, strict)
			}
		}
		s := map[string]any{"type": "object", "properties": props}
		if strict {
			s["additionalProperties"] = false
		}
		return s
	}
	return map[string]any{}
}
