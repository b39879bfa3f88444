package telemetry

import (
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// RecordsContents reports whether spans may hold what travellers and
// models write.
func RecordsContents() bool {
	s := current.Load()
	return s != nil && s.contents.Record
}

// Content sets the attribute key to text on span, cut to the configured
// length, when the operator has turned contents on; otherwise it does
// nothing. text is built only then.
func Content(span trace.Span, key string, text func() string) {
	s := current.Load()
	if s == nil || !s.contents.Record || !span.IsRecording() {
		return
	}
	span.SetAttributes(attribute.String(key, Cut(text(), s.contents.Bytes)))
}

// Cut shortens s to at most n bytes, at the start of a character, and
// marks the cut with "…" (within the n bytes).
func Cut(s string, n int) string {
	const mark = "…"
	if len(s) <= n {
		return s
	}
	if n <= len(mark) {
		return mark[:0]
	}
	end := n - len(mark)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + mark
}
