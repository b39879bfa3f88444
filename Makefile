# tripgraph: make run starts everything; make test sets up and runs every test.
GO      ?= go
BIN     := bin/tripgraph
PKGS    := ./...

.PHONY: build assets generate run test chromium test-race bench bench-peer bench-load bench-server-peer chaos lint db db-stop db-reset clean

build: assets
	$(GO) build -o $(BIN) ./cmd/tripgraph

# The browser scripts (htmx and its SSE extension) are installed from the
# lockfile in ui/ and copied into ui/static/vendor, which the binary embeds
# and git ignores. Without them the pages still read, without live updates.
UI_VENDOR := ui/static/vendor
assets: $(UI_VENDOR)/htmx.min.js $(UI_VENDOR)/sse.min.js
ui/node_modules/.package-lock.json: ui/package.json ui/package-lock.json
	cd ui && npm ci --no-audit --no-fund
$(UI_VENDOR)/htmx.min.js: ui/node_modules/.package-lock.json
	mkdir -p $(UI_VENDOR) && cp ui/node_modules/htmx.org/dist/htmx.min.js $@
$(UI_VENDOR)/sse.min.js: ui/node_modules/.package-lock.json
	mkdir -p $(UI_VENDOR) && cp ui/node_modules/htmx-ext-sse/dist/sse.min.js $@

# Regenerates the committed templ output (ui/*_templ.go) with the templ
# version pinned in go.mod; a test in ui fails when it is stale.
generate:
	$(GO) tool templ generate -path ui

# Starts the local database when DATABASE_URL is unset, migrates, seeds an
# empty database and serves.
run: build
	./$(BIN) serve --welcome

# Every test, under the race detector, including PostgreSQL integration
# tests (each package gets a fresh database on the local cluster, which
# starts itself) and the MCP interop tests with the official npm clients
# (installed into interop/node_modules on first use).
test: build chromium
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 30m $(PKGS)

# The browser tests (e2e/browser) drive Debian's chromium: installed here
# with apt-get when it is missing (as root, or through sudo when there is
# one), once; without it those tests skip.
CHROMIUM := /usr/bin/chromium
chromium: $(CHROMIUM)
$(CHROMIUM):
	@echo "chromium is missing: installing it with apt-get (for the browser tests)"
	@if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; \
	else echo "cannot install chromium: not root and no sudo. Run as root: apt-get update && apt-get install -y chromium" >&2; exit 1; fi; \
	$$sudo apt-get update && $$sudo apt-get install -y chromium || { \
	echo "installing chromium failed. Install it yourself (apt-get update && apt-get install -y chromium) and run make test again" >&2; exit 1; }

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# tripgraph side by side with LangGraph.js on the same trip-shaped graph
# (bench/peer, bench/README.md): installs the locked npm packages, checks
# that both reach the same states, alternates measured rounds between them
# and prints the table. Uses DATABASE_URL, or the local cluster.
PEER_JS := bench/peer/js
bench-peer: build $(PEER_JS)/node_modules/.package-lock.json
	$(GO) build -o bin/peer ./bench/peer
	DATABASE_URL="$${DATABASE_URL:-$$(./$(BIN) db url)}" ./bin/peer bench $(PEER_FLAGS)

# Streaming runs under load (bench/load, bench/README.md): starts one serve
# on a scratch database, streams runs from LOAD_FLAGS' clients (default
# 50 for 30 s), prints the figures, stops the server and drops the database.
bench-load: build
	$(GO) build -o bin/load ./bench/load
	./bin/load -bin ./$(BIN) $(LOAD_FLAGS)

$(PEER_JS)/node_modules/.package-lock.json: $(PEER_JS)/package-lock.json
	cd $(PEER_JS) && npm ci --no-audit --no-fund

# tripgraph serve side by side with LangGraph.js's API server under the same
# SDK load (bench/serverpeer, bench/README.md): installs the locked npm
# packages, starts a scratch PostgreSQL cluster with pg_stat_statements,
# alternates rounds between the servers at each number of clients and
# prints the medians. SERVERPEER_FLAGS='-clients 10 -rounds 1' to shorten it.
SERVERPEER_JS := bench/serverpeer/js
bench-server-peer: build $(SERVERPEER_JS)/node_modules/.package-lock.json
	$(GO) build -o bin/serverpeer ./bench/serverpeer
	./bin/serverpeer -bin ./$(BIN) -js $(SERVERPEER_JS) $(SERVERPEER_FLAGS)

$(SERVERPEER_JS)/node_modules/.package-lock.json: $(SERVERPEER_JS)/package-lock.json
	cd $(SERVERPEER_JS) && npm ci --no-audit --no-fund

# A bounded fault campaign (bench/chaos, bench/README.md "Chaos"): its own
# cluster under .data/chaos, two serve processes on one database, 20 clients
# and a seeded deck of faults for 4 minutes, then the invariants; exits 1 when
# one broke. Not part of make test. CHAOS_FLAGS='-seed 7' replays a draw.
chaos: build
	$(GO) build -o bin/chaos ./bench/chaos
	./bin/chaos -bin ./$(BIN) $(CHAOS_FLAGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

# The project-local PostgreSQL cluster (unused when DATABASE_URL is set).
db: build
	./$(BIN) db start
db-stop: build
	./$(BIN) db stop
db-reset: build
	./$(BIN) db reset

clean:
	rm -rf bin ui/static/vendor ui/node_modules
