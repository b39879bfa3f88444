package httpx

import (
	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/tripgraph/tripgraph/telemetry"
)

// Trace makes every request a server span named by its method and route
// (never its raw path), continuing the trace the client's traceparent
// header names; the handlers, the logs and the runs the request queues
// work under it. It passes requests through while tracing is off. It goes
// first among the middleware, so that the access log line and the
// request's metrics carry the span.
func Trace() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !telemetry.Enabled() {
				return next(c)
			}
			r := c.Request()
			route := c.Path()
			if route == "" {
				route = "(unmatched)"
			}
			ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
			ctx, span := telemetry.Tracer().Start(ctx, r.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
				trace.WithAttributes(attribute.String("http.request.method", r.Method), attribute.String("http.route", route),
					attribute.String("url.path", r.URL.Path), attribute.String("url.scheme", scheme(c)),
					attribute.String("user_agent.original", r.UserAgent()), attribute.String("client.address", c.RealIP())))
			defer span.End()
			c.SetRequest(r.WithContext(ctx))
			err := next(c)
			if err != nil {
				c.Error(err) // answered here, so that the span sees the status
			}
			status := c.Response().Status
			span.SetAttributes(attribute.Int("http.response.status_code", status))
			if status >= 500 {
				span.SetStatus(codes.Error, "")
			}
			return nil
		}
	}
}

func scheme(c echo.Context) string {
	if c.IsTLS() {
		return "https"
	}
	return "http"
}
