package config

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Setting is one variable of the configuration, as the README lists it.
type Setting struct {
	Name    string // the variable
	Default string // its default, as a person reads it
	Literal bool   // Default is the value itself, not words about it
	Help    string // what it means
	field   string // its Go field's name
	secret  bool   // its value is never written in an error (tag secret)
}

// Settings lists every variable of Config in the order of its fields.
func Settings() []Setting {
	var out []Setting
	walk(reflect.ValueOf(Default()), &out)
	return out
}

func walk(v reflect.Value, out *[]Setting) {
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		name := f.Tag.Get("env")
		if name == "" && f.Type.Kind() == reflect.Struct {
			walk(fv, out)
			continue
		}
		shown, words := f.Tag.Lookup("shown")
		if !words {
			shown = plain(fv)
		}
		*out = append(*out, Setting{Name: name, Default: shown, Literal: !words && shown != "", Help: f.Tag.Get("help"), field: f.Name,
			secret: f.Tag.Get("secret") == "true"})
	}
}

// plain writes a default value as it would be set.
func plain(v reflect.Value) string {
	if v.IsZero() {
		return ""
	}
	switch x := v.Interface().(type) {
	case time.Duration:
		return shortDuration(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v.Interface())
}

// code turns the «x» of the tags into Markdown code.
var code = strings.NewReplacer("«", "`", "»", "`")

// Markdown is the README's table of settings.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| variable | default | meaning |\n|---|---|---|\n")
	for _, s := range Settings() {
		def := s.Default
		if s.Literal {
			def = "`" + def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.Name, code.Replace(def), code.Replace(s.Help))
	}
	return b.String()
}

// shortDuration writes a duration without its zero minutes and seconds:
// 30m rather than 30m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
