package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/telemetry"
)

// startTracing sends this process's spans where the configuration says,
// when it says any; stop flushes what is left (call it last, on the way
// out). Off, nothing is started and stop does nothing.
func startTracing(ctx context.Context, c config.Tracing, log *slog.Logger) (stop func(), err error) {
	if !c.On() {
		return func() {}, nil
	}
	shutdown, err := telemetry.Start(ctx, tracingConfig(c))
	if err != nil {
		return nil, err
	}
	log.Info("tracing", "protocol", c.Protocol, "service", c.ServiceName, "sample_ratio", c.SampleRatio, "contents", c.Contents)
	return func() {
		flush, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := shutdown(flush); err != nil {
			log.Warn("stopping tracing", "err", err)
		}
	}, nil
}

// tracingConfig is the telemetry's part of the configuration.
func tracingConfig(c config.Tracing) telemetry.Config {
	return telemetry.Config{Endpoint: c.Endpoint, TracesEndpoint: c.TracesEndpoint, Protocol: c.Protocol,
		Headers: c.Headers, ServiceName: c.ServiceName, Resource: c.Resource, SampleRatio: c.SampleRatio,
		Contents: telemetry.Contents{Record: c.Contents, Bytes: c.ContentBytes}}
}

// statementTracer is what traces the database's statements while tracing
// is on (each a span under the request's, the run's or the tool call's),
// or nil. Statements' parameters are never recorded, nor the waits for a
// pooled connection (which would double the spans).
func statementTracer() pgx.QueryTracer {
	if !telemetry.Enabled() {
		return nil
	}
	return otelpgx.NewTracer(otelpgx.WithTrimSQLInSpanName(), otelpgx.WithDisableAcquireTracer())
}

// tracedModel is m with its calls traced while tracing is on.
func tracedModel(m llms.Model, spec string) llms.Model {
	if !telemetry.Enabled() {
		return m
	}
	return model.Traced(m, spec)
}

// aroundNodes is what wraps the planner's nodes while tracing is on: a
// span each.
func aroundNodes() func(string, func(context.Context, nodes.State) (nodes.Update, error)) func(context.Context, nodes.State) (nodes.Update, error) {
	if !telemetry.Enabled() {
		return nil
	}
	return telemetry.Node[nodes.State, nodes.Update]
}
