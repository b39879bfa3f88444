// Package telemetry is tripgraph's OpenTelemetry tracing: the process's
// tracer provider, set up from the configuration and sending spans over
// OTLP (gRPC or HTTP), and the helpers every layer traces with: a run's
// span across the queue (its creating request's trace context kept as a
// W3C traceparent), a node's span, a checkpoint write's, the rule for
// recorded contents, and the log handler that puts each line's trace and
// span ids in it.
//
// Tracing is off until Start (or Install) is called: then Tracer is a
// no-op, Enabled is false, and the wrappers the command would add are
// left out, so that tracing off costs nothing.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Scope is the instrumentation scope of tripgraph's own spans.
const Scope = "github.com/tripgraph/tripgraph"

// Protocols of the OTLP exporter.
const (
	GRPC         = "grpc"
	HTTPProtobuf = "http/protobuf"
)

// Config is where the spans go and what they hold (config.Tracing, read
// from OpenTelemetry's variables).
type Config struct {
	// Endpoint is the OTLP receiver's base URL; with HTTPProtobuf the
	// spans go to its path /v1/traces. TracesEndpoint, when set, wins and
	// is used as it is.
	Endpoint, TracesEndpoint string
	Protocol                 string            // GRPC or HTTPProtobuf (the default)
	Headers                  map[string]string // sent with every export
	ServiceName              string
	Resource                 map[string]string // more attributes of the process
	// SampleRatio is the share of traces kept where they start; spans
	// under a kept or dropped parent follow it.
	SampleRatio float64
	Contents    Contents
}

// Contents says whether spans record what travellers and models write
// (messages, tools' arguments and results), and how much of each.
type Contents struct {
	Record bool
	Bytes  int // each recorded content is cut to this many bytes; 4096 when 0
}

// state is the process's tracing once started.
type state struct {
	tracer   trace.Tracer
	contents Contents
}

var current atomic.Pointer[state]

// noopTracer is Tracer while tracing is off.
var noopTracer = noop.NewTracerProvider().Tracer(Scope)

// Tracer is the tracer of tripgraph's spans: a no-op one while tracing is
// off.
func Tracer() trace.Tracer {
	if s := current.Load(); s != nil {
		return s.tracer
	}
	return noopTracer
}

// Enabled reports whether spans are being sent.
func Enabled() bool { return current.Load() != nil }

// Start sends the process's spans as cfg says: it sets the global tracer
// provider and the W3C trace-context propagator, and returns the function
// that flushes the spans not yet sent and stops (call it once, on the way
// out, with a deadline).
func Start(ctx context.Context, cfg Config) (shutdown func(context.Context) error, err error) {
	exp, err := exporter(ctx, cfg)
	if err != nil {
		return nil, err
	}
	res, err := processResource(cfg)
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(cfg.SampleRatio))))
	restore := Install(tp, cfg.Contents)
	return func(ctx context.Context) error {
		restore()
		if err := tp.Shutdown(ctx); err != nil {
			return fmt.Errorf("sending the last spans: %w", err)
		}
		return nil
	}, nil
}

// Install makes tp the process's tracer provider, globally too, with the
// W3C propagator, until restore is called: Start's part, and what tests
// with an exporter of their own use.
func Install(tp trace.TracerProvider, contents Contents) (restore func()) {
	if contents.Bytes <= 0 {
		contents.Bytes = 4096
	}
	prevTP, prevProp := otel.GetTracerProvider(), otel.GetTextMapPropagator()
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	prev := current.Swap(&state{tracer: tp.Tracer(Scope), contents: contents})
	return func() {
		current.Store(prev)
		otel.SetTracerProvider(prevTP)
		otel.SetTextMapPropagator(prevProp)
	}
}

// exporter is the OTLP exporter cfg names.
func exporter(ctx context.Context, cfg Config) (sdktrace.SpanExporter, error) {
	target, err := endpoint(cfg)
	if err != nil {
		return nil, err
	}
	switch cfg.Protocol {
	case GRPC:
		exp, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpointURL(target), otlptracegrpc.WithHeaders(cfg.Headers))
		if err != nil {
			return nil, fmt.Errorf("starting the OTLP gRPC exporter: %w", err)
		}
		return exp, nil
	case HTTPProtobuf, "":
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(target), otlptracehttp.WithHeaders(cfg.Headers))
		if err != nil {
			return nil, fmt.Errorf("starting the OTLP HTTP exporter: %w", err)
		}
		return exp, nil
	}
	return nil, fmt.Errorf("starting tracing: unknown OTLP protocol %q (want %s or %s)", cfg.Protocol, GRPC, HTTPProtobuf)
}

// endpoint is the URL spans are sent to: the traces' own endpoint as it
// is, else the base endpoint, with /v1/traces for HTTP.
func endpoint(cfg Config) (string, error) {
	if cfg.TracesEndpoint != "" {
		return cfg.TracesEndpoint, nil
	}
	if cfg.Endpoint == "" {
		return "", errors.New("starting tracing: no OTLP endpoint is set")
	}
	if cfg.Protocol == GRPC {
		return cfg.Endpoint, nil
	}
	u, err := url.Parse(cfg.Endpoint)
	if err != nil {
		return "", fmt.Errorf("reading the OTLP endpoint: %w", err)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
	return u.String(), nil
}

// processResource describes this process: its service name, an instance
// id of its own (which tells apart the processes sharing a database in a
// trace), its pid, and the configured attributes.
func processResource(cfg Config) (*resource.Resource, error) {
	name := cfg.ServiceName
	if name == "" {
		name = "tripgraph"
	}
	attrs := []attribute.KeyValue{semconv.ServiceName(name), semconv.ServiceInstanceID(uuid.NewString()),
		semconv.ProcessPID(os.Getpid()), semconv.TelemetrySDKLanguageGo}
	for k, v := range cfg.Resource {
		if k != string(semconv.ServiceNameKey) {
			attrs = append(attrs, attribute.String(k, v))
		}
	}
	return resource.NewSchemaless(attrs...), nil
}
