package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-playground/validator/v10"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store/jsonb"
)

// validate checks request bodies; field errors name JSON fields.
var validate = func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(JSONName)
	v.RegisterValidation("object", isJSONObject)
	return v
}()

// isJSONObject is the "object" rule of raw JSON members such as metadata:
// a JSON object, or null.
func isJSONObject(fl validator.FieldLevel) bool {
	raw, ok := fl.Field().Interface().(json.RawMessage)
	trimmed := bytes.TrimSpace(raw)
	return ok && json.Valid(trimmed) && (bytes.HasPrefix(trimmed, []byte("{")) || string(trimmed) == "null")
}

// Bind reads a JSON request body into dst, a pointer to a struct, and
// validates it. An empty body leaves dst as it is. Every unknown field and
// every field of the wrong type is reported (422), with the validation
// failures; malformed JSON is a 400, a body over the cap a 413, and a body
// that arrives too slowly a 408.
func Bind(c echo.Context, dst any) error {
	fields, err := BindMembers(c)
	if err != nil || fields == nil {
		return err
	}
	if problems := DecodeFields(fields, dst); len(problems) > 0 {
		return Invalid(problems...)
	}
	return Check(dst)
}

// BindMembers reads a JSON object request body as its members, for a
// handler that splits them between types; nil for an empty body. Errors
// are Bind's.
func BindMembers(c echo.Context) (map[string]json.RawMessage, error) {
	data, err := readBody(c.Request(), c.Get(textJSONKey) == true)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, InvalidField("(body)", "must be a JSON object")
		}
		return nil, errcode.New(errcode.BadRequest, "the body is not valid JSON")
	}
	if fields == nil { // the body was null
		fields = map[string]json.RawMessage{}
	}
	return fields, nil
}

// Check runs the validate tags of v and reports each failure by field.
func Check(v any) error {
	err := validate.Struct(v)
	var ve validator.ValidationErrors
	if !errors.As(err, &ve) {
		return err
	}
	problems := make([]wire.FieldError, 0, len(ve))
	for _, fe := range ve {
		field := fe.Namespace()
		if _, rest, ok := strings.Cut(field, "."); ok {
			field = rest // drop the struct's own name
		}
		problems = append(problems, wire.FieldError{Field: field, Message: ruleMessage(fe)})
	}
	return Invalid(problems...)
}

// textJSONKey marks a request whose JSON body may come as text/plain.
const textJSONKey = "tripgraph.text_json"

// AllowTextJSON lets a request's JSON body come as text/plain, as a
// same-origin proxy in front of the API sends it (a fetch of a string).
// Call it only for requests authenticated by a header a cross-site form
// cannot send, such as an API key: a browser sends a cross-site text/plain
// POST without asking first, with its cookies, so a cookie-authenticated
// route that read one would be open to cross-site request forgery.
func AllowTextJSON(c echo.Context) { c.Set(textJSONKey, true) }

// readBody reads a JSON request body within the cap and deadline set by
// the route's middleware: application/json, or text/plain when textOK.
func readBody(r *http.Request, textOK bool) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !(textOK && mt == "text/plain")) {
			return nil, errcode.New(errcode.UnsupportedMedia, "send the body as application/json")
		}
	}
	data, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, &StatusError{Status: http.StatusRequestEntityTooLarge,
			Err: errcode.New(errcode.BadRequest, "the body is larger than %d bytes", tooBig.Limit)}
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, &StatusError{Status: http.StatusRequestTimeout,
			Err: errcode.New(errcode.BadRequest, "the body arrived too slowly")}
	case err != nil:
		return nil, errcode.Wrap(errcode.BadRequest, err, "the body could not be read")
	}
	return data, nil
}

// DecodeFields decodes each member of a JSON object into the field of dst
// with that JSON name, collecting a problem per unknown member, per member
// of the wrong type (nested objects refuse unknown members too) and per
// member PostgreSQL could not keep (jsonb.Problem: NUL characters, numbers
// out of its range…), whether or not it is stored: this is the one place
// every member of every body is checked.
func DecodeFields(fields map[string]json.RawMessage, dst any) []wire.FieldError {
	v := reflect.ValueOf(dst).Elem()
	byName := map[string]int{}
	for i := range v.NumField() {
		if name := JSONName(v.Type().Field(i)); name != "" {
			byName[name] = i
		}
	}
	var problems []wire.FieldError
	for _, name := range SortedKeys(fields) {
		i, ok := byName[name]
		if !ok {
			problems = append(problems, wire.FieldError{Field: name, Message: "unknown field"})
			continue
		}
		if msg := jsonb.Problem(fields[name]); msg != "" {
			problems = append(problems, wire.FieldError{Field: name, Message: msg})
			continue
		}
		if err := StrictUnmarshal(fields[name], v.Field(i).Addr().Interface()); err != nil {
			problems = append(problems, wire.FieldError{Field: name, Message: typeMessage(err)})
		}
	}
	return problems
}

// StrictUnmarshal decodes data into dst, refusing unknown object members.
func StrictUnmarshal(data []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

// typeMessage says what is wrong with a member's value, without Go names.
func typeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		where := ""
		if te.Field != "" {
			where = " at " + te.Field
		}
		return fmt.Sprintf("%s%s must be %s, not %s", "the value", where, jsonKind(te.Type), te.Value)
	}
	if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field ") {
		return "unknown field " + strings.TrimPrefix(msg, "json: unknown field ")
	}
	return "the value is not valid here"
}

// jsonKind names a Go type as a JSON kind.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another type"
}

// ruleMessage says which rule a field broke.
func ruleMessage(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "uuid":
		return "must be a UUID"
	case "object":
		return "must be a JSON object"
	case "oneof":
		return "must be one of: " + strings.ReplaceAll(fe.Param(), " ", ", ")
	case "min":
		return "must be at least " + fe.Param()
	case "max":
		if fe.Kind() == reflect.String {
			return "must be at most " + fe.Param() + " characters"
		}
		return "must be at most " + fe.Param()
	case "datetime":
		return "must be a date as YYYY-MM-DD"
	}
	return "breaks the rule " + fe.Tag()
}

// JSONName is the JSON name of a struct field, "" when it has none.
func JSONName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	if name == "" {
		return f.Name
	}
	return name
}

// Object is a client's JSON object member with JSON null meaning none.
func Object(raw json.RawMessage) json.RawMessage {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	return raw
}

// EmptyJSON reports whether a member was left out or sent empty: null, an
// empty object, list or string.
func EmptyJSON(raw json.RawMessage) bool {
	switch string(bytes.TrimSpace(raw)) {
	case "", "null", "{}", "[]", `""`:
		return true
	}
	return false
}

// SortedKeys are a map's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Text checks the path parameters of a route: each must be text a person
// could type, so that no NUL, invalid UTF-8 or control character reaches
// a query (an id that is text but names nothing is then NOT_FOUND). The
// router leaves parameters escaped when the path was sent with escapes Go
// would have written differently (%ff rather than %FF); Text unescapes
// them, so that handlers always see the value the client meant.
func Text(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		values := slices.Clone(c.ParamValues())
		for i, name := range c.ParamNames() {
			v := values[i]
			if c.Request().URL.RawPath != "" {
				var err error
				if v, err = url.PathUnescape(v); err != nil {
					return InvalidField(name, "is not a well-formed escaped path segment")
				}
			}
			if !printable(v) {
				return InvalidField(name, "must be printable UTF-8 text")
			}
			values[i] = v
		}
		c.SetParamValues(values...)
		return next(c)
	}
}

// printable reports whether s is valid UTF-8 with no control character.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
