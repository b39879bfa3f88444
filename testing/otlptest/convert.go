package otlptest

import (
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// convertSpan is a received span in the test's terms.
func convertSpan(p *tracepb.Span, res map[string]string) Span {
	s := Span{TraceID: hexID(p.TraceId), SpanID: hexID(p.SpanId), ParentID: hexID(p.ParentSpanId), Name: p.Name,
		Kind: kinds[int32(p.Kind)], Start: time.Unix(0, int64(p.StartTimeUnixNano)), End: time.Unix(0, int64(p.EndTimeUnixNano)),
		Attrs: attrs(p.Attributes), Resource: res,
		Error: p.GetStatus().GetCode() == tracepb.Status_STATUS_CODE_ERROR, Message: p.GetStatus().GetMessage()}
	for _, e := range p.Events {
		s.Events = append(s.Events, e.Name)
	}
	for _, l := range p.Links {
		s.Links = append(s.Links, Link{TraceID: hexID(l.TraceId), SpanID: hexID(l.SpanId), Attrs: attrs(l.Attributes)})
	}
	return s
}
