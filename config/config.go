// Package config is tripgraph's configuration: every setting the binary
// reads from its environment or a .env file, with its default, its rule and
// what it means, in one typed value.
//
// The command reads it once (Load) and passes its parts down as plain
// values; no other package reads the environment. The README's table of
// settings is made from this package (Markdown), and a test fails when the
// two differ.
package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
)

// Config is every setting. Each field's tags say its variable (env), what
// it means (help) and, where the default is not a plain value, how the
// README states it (shown); in those texts «x» is code. Default gives the
// defaults.
type Config struct {
	Database Database
	Model    Model
	HTTP     HTTP
	MCP      MCP
	Storage  Storage
	Servers  UserServers
	Limits   Limits
	Quota    Quota
	Runner   Runner
	EndUsers EndUsers
	Tracing  Tracing
}

// Database says which PostgreSQL to use.
type Database struct {
	URL        string `env:"DATABASE_URL" shown:"a local cluster under «.data/»" help:"PostgreSQL to use; when set, no local cluster is started"`
	ReplicaURL string `env:"TRIPGRAPH_DATABASE_REPLICA_URL" shown:"unset: the primary serves every read" secret:"true" help:"a streaming replica (hot standby) of the database that serves reads: threads' history and state, thread, run and store searches, and the replay of finished runs' streams; everything else stays on «DATABASE_URL». A read goes to it only once it has replayed all the primary had committed when the read began (waiting up to 100 ms, else the primary serves it), so every client reads its own writes. A replica that fails or cannot be reached is left alone for 10 s, the primary serving meanwhile, with no error to the client. Its pool is as large as the primary's"`
	Pool       int    `env:"TRIPGRAPH_DB_POOL" shown:"2 per CPU" validate:"eq=0|gte=2" help:"most connections in «serve»'s database pool for the runs' work; half as many again are kept for what requests wait on (creating a run, checking a key), and the connections that listen for and send run notifications are apart. It wins over a «pool_max_conns» in «DATABASE_URL». The default counts this machine's CPUs, two per CPU: at 10 and 50 streaming clients on 2 CPUs, with PostgreSQL beside «serve», its backends were busy 1.2 to 1.8 at a time on average, and 4 connections ran as many runs a second as 12 with about 55 MiB less memory"`
}

// Model says which language model the planner runs on, with the keys of
// the providers.
type Model struct {
	Spec          string        `env:"TRIPGRAPH_MODEL" help:"«offline», «openai:<model>», «anthropic:<model>» or «googleai:<model>»"`
	OpenAIKey     string        `env:"OPENAI_API_KEY" help:"key for «openai:» models"`
	OpenAIBaseURL string        `env:"OPENAI_BASE_URL" shown:"OpenAI's" help:"any OpenAI-compatible server: Ollama, vLLM, …"`
	AnthropicKey  string        `env:"ANTHROPIC_API_KEY" help:"key for «anthropic:» models"`
	GoogleKey     string        `env:"GOOGLE_API_KEY" help:"key for «googleai:» models"`
	Delay         time.Duration `env:"TRIPGRAPH_MODEL_DELAY" validate:"gte=0" help:"every model call waits this long before it answers: the offline model then stands in for a remote one in benchmarks (bench/README.md, «Capacity»)"`
}

// HTTP is where serve listens and whom it answers.
type HTTP struct {
	Addr           string   `env:"TRIPGRAPH_ADDR" help:"where «serve» listens («--addr»)"`
	PublicURL      string   `env:"TRIPGRAPH_PUBLIC_URL" shown:"«http://ADDR»" help:"base of photo and picture URLs in tool results"`
	MediaRoot      string   `env:"TRIPGRAPH_MEDIA_ROOT" help:"photo files; generated ones are drawn there on first request"`
	AllowedOrigins []string `env:"TRIPGRAPH_ALLOWED_ORIGINS" shown:"loopback origins only" help:"comma-separated browser origins allowed to call «/mcp» («*» for any)"`
	PprofAddr      string   `env:"TRIPGRAPH_PPROF_ADDR" shown:"off" help:"a loopback address (such as «127.0.0.1:6060») where «serve» serves Go's profiles under «/debug/pprof/», apart from the API; any other address is refused"`
	CORSOrigins    []string `env:"TRIPGRAPH_CORS_ORIGINS" shown:"none" validate:"dive,http_url" help:"comma-separated browser origins (such as «http://localhost:3000») whose pages may call the REST API with an API key (CORS: the headers «x-api-key», «authorization», «content-type» and «last-event-id», never cookies); empty, no page of another origin may"`
}

// MCP configures our MCP server: its secret, its own listener, and the
// limits of its HTTP transport.
type MCP struct {
	Secret              string        `env:"MCP_SECRET" shown:"unset" validate:"omitempty,min=16" help:"HMAC secret (at least 16 bytes) for the bearer tokens the bridge mints and for signed photo links; unset, tokens are refused (API keys still work) and links are signed with a per-process key"`
	StandaloneAddr      string        `env:"MCP_ADDR" help:"where «tripgraph mcp --transport http» listens"`
	User                string        `env:"TRIPGRAPH_USER" help:"the user «mcp --transport stdio» acts as («--user»)"`
	MaxSessions         int           `env:"MCP_MAX_SESSIONS" validate:"gt=0" help:"live MCP sessions over HTTP; a new one past the cap closes the session idle for longest, or gets 503 when all are busy"`
	SessionTimeout      time.Duration `env:"MCP_SESSION_TIMEOUT" validate:"gt=0" help:"an MCP session idle this long is closed"`
	MaxBatch            int           `env:"MCP_MAX_BATCH" validate:"gt=0" help:"messages in one JSON-RPC batch (batches exist on 2025-03-26 sessions only)"`
	MaxBatchResultBytes int64         `env:"MCP_MAX_BATCH_RESULT_BYTES" validate:"gt=0" help:"the work of one batch: once its results add up to this many bytes, its remaining calls get a «-32000» error"`
	MaxRequestBytes     int64         `env:"MCP_MAX_BODY_BYTES" validate:"gt=0" help:"size of one request body to «/mcp» (413 past it)"`
	RequestBodyTimeout  time.Duration `env:"MCP_BODY_TIMEOUT" validate:"gt=0" help:"time for a request body to arrive (408 past it); streamed responses have no limit"`
}

// Storage is how long threads and run events are kept and how much
// memory checkpoints may use.
type Storage struct {
	ThreadTTL       time.Duration `env:"TRIPGRAPH_THREAD_TTL" shown:"unset: keep forever" validate:"gte=0" help:"threads whose newest checkpoint is older than this Go duration («720h») are deleted by «serve»'s sweeper and by «tripgraph prune»"`
	RunEventsTTL    time.Duration `env:"TRIPGRAPH_RUN_EVENTS_TTL" validate:"gte=0" help:"how long a run's stream events (what joining or resuming a run's stream replays) are kept after the run was created, a Go duration; never while the run is queued, pending or running. «serve» and «tripgraph prune» drop them a day's partition at a time, so they stay up to a day longer («0»: keep them until their thread is deleted). The run's checkpoints, and so its thread's state and history, are kept apart"`
	CheckpointCache ByteSize      `env:"TRIPGRAPH_CHECKPOINT_CACHE_BYTES" validate:"gte=0" help:"memory for the threads' newest checkpoint states, which writing deltas needs («0»: none); bytes, or with a «KiB», «MiB» or «GiB» suffix"`
}

// UserServers configures the MCP servers users add: the key that seals
// their credentials and the private hosts they may reach.
type UserServers struct {
	SecretKey  string   `env:"TRIPGRAPH_SECRET_KEY" shown:"unset" help:"32-byte key (64 hex digits or base64) that seals the credentials of users' MCP servers with AES-256-GCM; unset, servers with a credential cannot be added. Make one with «openssl rand -hex 32»"`
	AllowHosts []string `env:"TRIPGRAPH_MCP_ALLOW_HOSTS" shown:"empty" help:"comma-separated host names, addresses and CIDR prefixes that users' MCP servers may reach although they are private, loopback or otherwise blocked (for example «mcp.internal,10.20.0.0/16»)"`
}

// Limits bound what one REST request, one API key, one user's open streams
// and one browser session may cost.
type Limits struct {
	MaxBodyBytes int64         `env:"TRIPGRAPH_MAX_BODY_BYTES" validate:"gt=0" help:"largest REST request body; larger ones get 413"`
	BodyTimeout  time.Duration `env:"TRIPGRAPH_BODY_TIMEOUT" validate:"gt=0" help:"a REST request body must arrive within this, else 408"`
	WriteTimeout time.Duration `env:"TRIPGRAPH_WRITE_TIMEOUT" validate:"gt=0" help:"a non-streaming REST answer must be written within this"`
	RatePerSec   float64       `env:"TRIPGRAPH_RATE_LIMIT" validate:"gt=0" help:"REST requests per second per API key, or per end user for tokens, on average (a token bucket each, in each process's memory)"`
	RateBurst    int           `env:"TRIPGRAPH_RATE_BURST" validate:"gt=0" help:"REST requests an API key may send at once; over the limit the answer is 429 «TOO_MANY_REQUESTS» with «Retry-After». The defaults suit one backend key serving all of an app's travellers; for keys handed to people directly, 10 a second and bursts of 40 are tighter"`
	MaxStreams   int           `env:"TRIPGRAPH_MAX_STREAMS" validate:"gt=0" help:"run streams, waits and browser live streams one user may hold open at once in one «serve» process, over all their API keys and browser sessions; one more is refused with 429 «TOO_MANY_REQUESTS»"`
	SessionTTL   time.Duration `env:"TRIPGRAPH_SESSION_TTL" validate:"gt=0" help:"how long a browser session lasts after signing in (a Go duration); sessions live in PostgreSQL, so every «serve» on the database knows them"`
}

// EndUsers says how the travellers of an app that signs them in itself
// reach the REST API, each as a user of their own: with their identity
// provider's tokens, or through the app's backend key.
type EndUsers struct {
	JWTIssuer     string        `env:"TRIPGRAPH_JWT_ISSUER" shown:"unset: no tokens are accepted" validate:"omitempty,url" help:"the «iss» of the identity provider whose JSON Web Tokens the REST API accepts as «Authorization: Bearer»: each token's subject, under this issuer, is a tripgraph user of its own, made on first sight. «serve» fetches the issuer's discovery document and key set as it starts, and does not start when it cannot"`
	JWTJWKSURL    string        `env:"TRIPGRAPH_JWT_JWKS_URL" shown:"from the issuer's discovery document" validate:"omitempty,url" help:"where the provider publishes its signing keys (a JSON Web Key Set); unset, it is read from «ISSUER/.well-known/openid-configuration». It is fetched at start, every hour, and when a token names a key not yet known (at most once a minute)"`
	JWTAudience   []string      `env:"TRIPGRAPH_JWT_AUDIENCE" shown:"none" validate:"required_with=JWTIssuer" help:"comma-separated «aud» values accepted: a token must name one of them. Required with an issuer, so that a token minted for another service is refused"`
	JWTAlgorithms []string      `env:"TRIPGRAPH_JWT_ALGORITHMS" shown:"RS256 … PS512, ES256 … ES512, EdDSA" help:"comma-separated signing algorithms accepted; only asymmetric ones may be named («none» and «HS256» never)"`
	JWTClockSkew  time.Duration `env:"TRIPGRAPH_JWT_CLOCK_SKEW" validate:"gte=0,lte=10m" help:"how far the provider's clock and this server's may differ when a token's «exp», «nbf» and «iat» are checked"`
	ActFor        bool          `env:"TRIPGRAPH_ACT_FOR_END_USERS" shown:"off" help:"let API keys made with the «backend» role act for an end user that the header «X-Tripgraph-End-User» names (the app's own id for them, 1 to 512 bytes): each end user of the key's user is a tripgraph user of its own. Off, a request with that header is refused with 403. Each such request is logged with the acting key's id"`
}

// Quota is what one user may keep and run at once, held alike by
// PostgreSQL and the in-memory twin (package store/quota).
type Quota struct {
	MaxCrons        int           `env:"TRIPGRAPH_MAX_CRONS" validate:"gt=0" help:"crons one user may keep; creating one more is refused with 422 «LIMIT_EXCEEDED»"`
	CronMinInterval time.Duration `env:"TRIPGRAPH_CRON_MIN_INTERVAL" validate:"gte=1m" help:"the shortest time a cron's schedule may leave between two due times (at least «1m», as LangGraph's); a schedule that may be due sooner («@every 30s») is refused with 422 «LIMIT_EXCEEDED», and a stored one stops at its next due time"`
	MaxStoreItems   int           `env:"TRIPGRAPH_MAX_STORE_ITEMS" validate:"gt=0" help:"items one user's long-term store («/store/items») may hold; a put of one more is refused with 422 «LIMIT_EXCEEDED»"`
	MaxStoreBytes   ByteSize      `env:"TRIPGRAPH_MAX_STORE_BYTES" validate:"gt=0" help:"bytes one user's long-term store may hold: each item counts its value as compact JSON, its key and its namespace's labels; replacing an item counts the difference and deleting one frees its bytes. Bytes, or with a «KiB», «MiB» or «GiB» suffix; a put past it is refused with 422 «LIMIT_EXCEEDED»"`
	MaxActiveRuns   int           `env:"TRIPGRAPH_MAX_ACTIVE_RUNS" validate:"gt=0" help:"runs one user may have queued and running at once, over all their threads and every «serve» process on the database; one more is refused with 429 «TOO_MANY_REQUESTS» (a cron's due time then starts none). A backend key that serves all of an app's travellers is one user (raise it to fit), unless it acts for each as an end user («TRIPGRAPH_ACT_FOR_END_USERS»), each a user of their own"`
}

// Runner sizes and paces the workers that execute runs.
type Runner struct {
	Workers       int           `env:"TRIPGRAPH_WORKERS" shown:"24 per CPU, 32 to 96" validate:"gte=0" help:"runs one «serve» process executes at once, claimed from the queue all processes on the database share; «0» sizes it from the machine"`
	Lease         time.Duration `env:"TRIPGRAPH_RUN_LEASE" validate:"gte=1s" help:"how long a worker's claim on a run lasts (at least «1s»); it is renewed every third of it, and a run whose process died is taken over by another process within about one and a half leases"`
	ShutdownGrace time.Duration `env:"TRIPGRAPH_SHUTDOWN_GRACE" validate:"gte=0" help:"on SIGTERM or Ctrl-C, «serve» stops taking runs and new connections, lets its runs go on this long, hands the unfinished ones back to the queue (another process resumes them from their last checkpoint at once), then ends open streams with an «UNAVAILABLE» error frame telling clients to join again with «Last-Event-ID»; requests still going get 10 s more"`
}

// Tracing says where the OpenTelemetry traces of requests and runs go,
// and what they hold. It is off until an OTLP endpoint is set. The
// variables are OpenTelemetry's own, read here as every setting is.
type Tracing struct {
	Endpoint       string    `env:"OTEL_EXPORTER_OTLP_ENDPOINT" shown:"unset: tracing off" validate:"omitempty,url" help:"the OTLP collector or back end traces are sent to (such as «http://127.0.0.1:4318», or «http://127.0.0.1:4317» with «grpc»); setting it turns tracing on. With «http/protobuf» the traces go to its path «/v1/traces»; an «http://» endpoint is sent to without TLS"`
	TracesEndpoint string    `env:"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" shown:"unset" validate:"omitempty,url" help:"the traces' own endpoint, which wins over «OTEL_EXPORTER_OTLP_ENDPOINT» and turns tracing on too; with «http/protobuf» it is the whole URL, path included"`
	Protocol       string    `env:"OTEL_EXPORTER_OTLP_PROTOCOL" validate:"oneof=grpc http/protobuf" help:"«grpc» or «http/protobuf»"`
	Headers        KeyValues `env:"OTEL_EXPORTER_OTLP_HEADERS" shown:"none" secret:"true" help:"headers sent with every export, «key=value» pairs separated by commas, values URL-encoded (such as «Authorization=Basic%20…» for Langfuse); never logged"`
	ServiceName    string    `env:"OTEL_SERVICE_NAME" help:"the «service.name» of this process's spans"`
	Resource       KeyValues `env:"OTEL_RESOURCE_ATTRIBUTES" shown:"none" help:"more attributes of this process's spans, «key=value» pairs separated by commas (such as «deployment.environment.name=staging»)"`
	SampleRatio    float64   `env:"OTEL_TRACES_SAMPLER_ARG" validate:"gte=0,lte=1" help:"the share of traces kept, from «0» to «1», decided where a trace starts (a request, or a cron's run) and followed by every span under it, a run executed by another process included («parentbased_traceidratio»)"`
	Disabled       bool      `env:"OTEL_SDK_DISABLED" shown:"false" help:"«true» turns tracing off whatever else is set"`
	Contents       bool      `env:"TRIPGRAPH_TRACE_CONTENTS" shown:"off" help:"record the messages a model is sent and answers, and tools' arguments and results, in the spans; off, spans hold names, sizes, token counts and outcomes only. Turn it on only where the trace back end may hold what travellers write"`
	ContentBytes   int       `env:"TRIPGRAPH_TRACE_CONTENT_BYTES" validate:"gt=0" help:"with «TRIPGRAPH_TRACE_CONTENTS», each recorded content is cut to this many bytes (at a character's start), marked «…» where it was cut"`
}

// On reports whether traces are sent: an endpoint is set and the SDK is
// not disabled.
func (t Tracing) On() bool {
	return !t.Disabled && (t.Endpoint != "" || t.TracesEndpoint != "")
}

// DBPool is the size of serve's database pool on a machine of cpus CPUs:
// Database.Pool when set, else two connections per CPU (4 on 2 CPUs). The
// workers are many more, but a worker holds a connection only while a
// statement runs, and the database gets through its work soonest with few
// statements at once. The size follows what was measured: at 10 and 50
// streaming clients on 2 CPUs, PostgreSQL's backends were busy 1.2 to 1.8
// at a time on average (5 to 13 at the most), and 4 connections gave the
// runs per second of 12, an earlier first output, and 55 – 60 MiB less
// memory in PostgreSQL, each connection being a backend (see
// bench/README.md, "Memory with PostgreSQL: the pool sized from what was
// measured").
func (c Config) DBPool(cpus int) int32 {
	if c.Database.Pool > 0 {
		return int32(c.Database.Pool)
	}
	return int32(max(2, 2*cpus))
}

// Load reads the configuration: the defaults, then the variables of the
// file dotEnv (KEY=VALUE lines; none when "" or missing), then those of
// environ (os.Environ's form), which win. Every value is checked, and
// every problem is reported, each naming its variable.
func Load(environ []string, dotEnv string) (Config, error) {
	vars, err := readDotEnv(dotEnv)
	if err != nil {
		return Config{}, err
	}
	for k, v := range env.ToMap(environ) {
		vars[k] = v
	}
	return FromMap(vars)
}

// FromMap reads the configuration from variables alone, over the defaults.
func FromMap(vars map[string]string) (Config, error) {
	c := Default()
	for k, v := range vars { // an empty variable counts as unset
		if strings.TrimSpace(v) == "" {
			delete(vars, k)
		}
	}
	if err := env.ParseWithOptions(&c, env.Options{Environment: vars,
		FuncMap: map[reflect.Type]env.ParserFunc{reflect.TypeFor[[]string](): splitList}}); err != nil {
		return Config{}, readable(err, vars)
	}
	if err := check(c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// splitList reads a comma-separated list, trimming each entry and dropping
// empty ones.
func splitList(v string) (any, error) {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// readable rewords the parser's errors: one line per variable, naming it
// and its value rather than the Go field (field names are unique across
// Config for this; a test holds it).
func readable(err error, vars map[string]string) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return fmt.Errorf("reading the configuration: %w", err)
	}
	byField, secret := map[string]string{}, map[string]bool{}
	for _, s := range Settings() {
		byField[s.field], secret[s.Name] = s.Name, s.secret
	}
	problems := make([]error, 0, len(agg.Errors))
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) && byField[pe.Name] != "" {
			name := byField[pe.Name]
			if e = fmt.Errorf("%s=%q: %w", name, vars[name], pe.Err); secret[name] {
				e = fmt.Errorf("%s: %w", name, pe.Err)
			}
		}
		problems = append(problems, fmt.Errorf("reading the configuration: %w", e))
	}
	return errors.Join(problems...)
}

// readDotEnv reads a KEY=VALUE file into a map. A missing file is none.
func readDotEnv(path string) (map[string]string, error) {
	vars := map[string]string{}
	if path == "" {
		return vars, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return vars, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want KEY=VALUE", path, n)
		}
		vars[strings.TrimSpace(key)] = strings.Trim(strings.TrimSpace(value), `"'`)
	}
	return vars, sc.Err()
}
