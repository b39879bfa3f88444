package config

import "time"

// Default is the configuration when nothing is set. Packages that have
// defaults of their own for a zero value agree with these; a test of the
// command holds them together.
func Default() Config {
	return Config{
		Model: Model{Spec: "offline"},
		HTTP:  HTTP{Addr: "127.0.0.1:8080", MediaRoot: ".data/media"},
		MCP: MCP{StandaloneAddr: "127.0.0.1:8081", MaxSessions: 1000, SessionTimeout: 30 * time.Minute,
			MaxBatch: 20, MaxBatchResultBytes: 4 << 20, MaxRequestBytes: 4 << 20, RequestBodyTimeout: 10 * time.Second},
		Storage: Storage{RunEventsTTL: 7 * 24 * time.Hour, CheckpointCache: 2 << 20},
		Limits: Limits{MaxBodyBytes: 1 << 20, BodyTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
			RatePerSec: 500, RateBurst: 2000, MaxStreams: 1000, SessionTTL: 7 * 24 * time.Hour},
		Quota: Quota{MaxCrons: 100, CronMinInterval: time.Minute, MaxStoreItems: 10_000, MaxStoreBytes: 50 << 20,
			MaxActiveRuns: 20},
		Runner:   Runner{Lease: 30 * time.Second, ShutdownGrace: 20 * time.Second},
		EndUsers: EndUsers{JWTClockSkew: time.Minute},
		Tracing:  Tracing{Protocol: "http/protobuf", ServiceName: "tripgraph", SampleRatio: 1, ContentBytes: 4096},
	}
}
