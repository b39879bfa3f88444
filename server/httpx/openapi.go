package httpx

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

// pathParam matches an echo path parameter.
var pathParam = regexp.MustCompile(`:([A-Za-z_]+)`)

// OpenAPIPath turns an echo path into an OpenAPI one: ":id" becomes "{id}"
// and a trailing "*" the "{path}" parameter.
func OpenAPIPath(p string) string {
	p = pathParam.ReplaceAllString(p, "{$1}")
	if strings.HasSuffix(p, "*") {
		p = strings.TrimSuffix(p, "*") + "{path}"
	}
	return p
}

// Route is one endpoint: how it is registered with echo, and how the
// OpenAPI description shows it. The same list does both, so the two
// cannot differ.
type Route struct {
	Method, Path string
	Summary      string
	Handler      echo.HandlerFunc
	Middleware   []echo.MiddlewareFunc // its own, after the server's
	Public       bool                  // no credential needed
	Mounted      bool                  // a handler with its own auth and limits
	Long         bool                  // answers when a run ends, or streams: no write deadline
	Body         any                   // the request body's wire type, if any
	Response     any                   // the success body's wire type, if any
	Status       int                   // the success status; 200 when 0
	Query        []string              // query parameters
}

// Register adds the routes to e, each with its own middleware.
func Register(e *echo.Echo, routes []Route) {
	for _, r := range routes {
		e.Add(r.Method, r.Path, r.Handler, r.Middleware...)
	}
}

// OpenAPI is the OpenAPI 3.1 description of routes.
func OpenAPI(routes []Route) map[string]any {
	paths := map[string]map[string]any{}
	for _, r := range routes {
		p := OpenAPIPath(r.Path)
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(r.Method)] = operation(r, p)
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

func operation(r Route, path string) map[string]any {
	op := map[string]any{"summary": r.Summary, "operationId": strings.ToLower(r.Method) + operationName(path)}
	var params []map[string]any
	for _, m := range regexp.MustCompile(`\{([A-Za-z_]+)\}`).FindAllStringSubmatch(path, -1) {
		params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
	}
	for _, q := range r.Query {
		params = append(params, map[string]any{"name": q, "in": "query", "schema": map[string]any{"type": "string"}})
	}
	if params != nil {
		op["parameters"] = params
	}
	if r.Body != nil {
		op["requestBody"] = map[string]any{"content": map[string]any{
			"application/json": map[string]any{"schema": schemaOf(reflect.TypeOf(r.Body), true)}}}
	}
	status := r.Status
	if status == 0 {
		status = http.StatusOK
	}
	ok := map[string]any{"description": http.StatusText(status)}
	if r.Response != nil {
		ok["content"] = map[string]any{"application/json": map[string]any{"schema": schemaOf(reflect.TypeOf(r.Response), false)}}
	}
	op["responses"] = map[string]any{
		strconv.Itoa(status): ok,
		"default": map[string]any{"description": "An error", "content": map[string]any{
			"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}},
	}
	switch {
	case r.Mounted:
		op["description"] = "Served by its own handler, with its own authentication."
	case !r.Public:
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
			if name := JSONName(t.Field(i)); name != "" {
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
