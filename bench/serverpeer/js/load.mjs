// The load: N concurrent clients of the official JS client
// (@langchain/langgraph-sdk), each holding conversations of bench/peer's
// workload on one server. The same program drives tripgraph serve and
// LangGraph.js's API server.
//
//   node load.mjs --url http://127.0.0.1:PORT [--key KEY] --clients N --seconds S
//                 [--warmup-runs R] [--max-runs M] [--check]
//
// A client takes the next row of the workload's schedule (10 requests),
// creates a thread (threads.create) and streams one run per request on it
// (runs.stream, stream_mode values and updates), one after another; then it
// takes the next row on a new thread. Before the timed part, --warmup-runs
// runs are streamed by up to 10 clients. Clients start runs for --seconds; the
// runs under way then finish (each is abandoned as an error 60 s after it
// started).
//
// Prints a line "measuring" when the timed part starts and "drained" when
// every client has stopped, so that the caller can read the servers' CPU
// time at those moments, then one line of JSON with what the clients saw.
// With --check it streams each row of the schedule once, one client, and
// prints per run the nodes that ran and the trip at the end instead.

import { Client } from "@langchain/langgraph-sdk";
import { futureWorkload } from "../../peer/js/trip.mjs";

// The workload with its dates moved after today (see futureWorkload).
const w = futureWorkload();

const ASSISTANT = "trip-planner";
const RUN_TIMEOUT_MS = 60_000;

function parseArgs(argv) {
  const o = { url: "", key: "", clients: 10, seconds: 20, warmupRuns: 50, maxRuns: 100_000, check: false };
  for (let i = 0; i < argv.length; i++) {
    const v = () => argv[++i];
    switch (argv[i]) {
      case "--url": o.url = v(); break;
      case "--key": o.key = v(); break;
      case "--clients": o.clients = Number(v()); break;
      case "--seconds": o.seconds = Number(v()); break;
      case "--warmup-runs": o.warmupRuns = Number(v()); break;
      case "--max-runs": o.maxRuns = Number(v()); break;
      case "--check": o.check = true; break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  const host = new URL(o.url).hostname;
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]") {
    throw new Error(`--url must be on loopback, not ${host}`);
  }
  if (!(o.clients >= 1 && o.seconds > 0 && o.seconds <= 600)) throw new Error("want --clients ≥ 1 and 0 < --seconds ≤ 600");
  return o;
}

// statuses counts every HTTP answer the clients got, retries included (the
// SDK retries 429 and 5xx answers by itself, with backoff), and the
// requests that got none, by the transport's reason (which the SDK's own
// error leaves out).
const statuses = {};
const count = (key) => (statuses[key] = (statuses[key] ?? 0) + 1);
function countingFetch(...args) {
  return fetch(...args).then(
    (res) => {
      count(res.status);
      return res;
    },
    (err) => {
      count(`no answer: ${err?.cause?.code ?? err?.cause?.message ?? err?.message}`);
      throw err;
    },
  );
}

function newClient(o) {
  return new Client({
    apiUrl: o.url,
    apiKey: o.key || null,
    callerOptions: { fetch: countingFetch },
  });
}

// conversations hands out rows of the schedule in turn.
let nextRow = 0;
const takeRow = () => w.schedule[nextRow++ % w.schedule.length];

const message = (requestIndex, turn) => ({
  messages: [{ id: `human-${turn}`, type: "human", content: w.requests[requestIndex].text }],
});

// streamRun streams one run and times it: from the call to the first frame
// (metadata), to the first node output (the first `updates` event) and to
// the stream's end.
async function streamRun(client, threadId, input) {
  const start = performance.now();
  const m = { firstFrame: 0, firstUpdate: 0, total: 0, error: "", nodes: [], last: null };
  try {
    const stream = client.runs.stream(threadId, ASSISTANT, {
      input,
      streamMode: ["values", "updates"],
      signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
    });
    for await (const ev of stream) {
      const at = performance.now() - start;
      if (!m.firstFrame) m.firstFrame = at;
      if (ev.event === "updates") {
        if (!m.firstUpdate) m.firstUpdate = at;
        m.nodes.push(...Object.keys(ev.data ?? {}));
      } else if (ev.event === "values") {
        m.last = ev.data;
      } else if (ev.event === "error") {
        m.error = "an error event";
      }
    }
    if (!m.error && !m.firstUpdate) m.error = "no node output";
  } catch (err) {
    m.error = errClass(err);
  }
  m.total = performance.now() - start;
  return m;
}

function errClass(err) {
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return "timeout";
  if (typeof err?.status === "number") return `status ${err.status}`;
  return String(err?.message ?? err).slice(0, 80);
}

async function createThread(client, times) {
  const start = performance.now();
  const t = await client.threads.create();
  times.push(performance.now() - start);
  return t.thread_id;
}

// runClient holds conversations while mayStart allows a new run; each run
// it streams is passed to record.
async function runClient(o, mayStart, record, threadTimes) {
  const client = newClient(o);
  while (mayStart(false)) {
    const row = takeRow();
    let threadId;
    try {
      threadId = await createThread(client, threadTimes);
    } catch (err) {
      record({ error: "creating a thread: " + errClass(err) });
      continue;
    }
    for (let turn = 0; turn < row.length && mayStart(true); turn++) {
      record(await streamRun(client, threadId, message(row[turn], turn)));
    }
  }
}

const percentile = (sorted, p) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

function summary(values) {
  const s = Float64Array.from(values).sort();
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: percentile(s, 100) };
}

// warmUp streams --warmup-runs runs from up to 10 clients at once, so that
// both servers have compiled and cached what a run needs (V8's JIT above
// all) before the timed part.
async function warmUp(o) {
  let left = o.warmupRuns;
  let failed = 0;
  const one = async () => {
    const client = newClient(o);
    while (left > 0) {
      const row = takeRow();
      let threadId;
      try {
        threadId = await createThread(client, []);
      } catch {
        failed++;
        left--;
        continue;
      }
      for (let turn = 0; turn < row.length && left > 0; turn++) {
        left--;
        const m = await streamRun(client, threadId, message(row[turn], turn));
        if (m.error) failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.clients, 10) }, one));
  if (failed === o.warmupRuns) throw new Error("every warm-up run failed");
  return failed;
}

async function load(o) {
  const warmupErrors = await warmUp(o);
  const warmupStatuses = { ...statuses };
  for (const k of Object.keys(statuses)) delete statuses[k];
  const first = [], update = [], total = [], threadTimes = [];
  const errors = {};
  let started = 0;
  let ok = 0;
  const cpuBefore = process.cpuUsage();
  console.log("measuring");
  const begin = performance.now();
  const deadline = begin + o.seconds * 1000;
  // mayStart says whether a client may start another run, and counts it
  // when it does.
  const mayStart = (starting) => {
    if (performance.now() >= deadline || started >= o.maxRuns) return false;
    if (starting) started++;
    return true;
  };
  const record = (m) => {
    if (m.error) {
      errors[m.error] = (errors[m.error] ?? 0) + 1;
      return;
    }
    ok++;
    first.push(m.firstFrame);
    update.push(m.firstUpdate);
    total.push(m.total);
  };
  await Promise.all(Array.from({ length: o.clients }, () => runClient(o, mayStart, record, threadTimes)));
  const elapsed = (performance.now() - begin) / 1000;
  console.log("drained");
  const cpu = process.cpuUsage(cpuBefore);
  return {
    clients: o.clients,
    seconds: elapsed,
    ok,
    errors,
    runsPerSecond: ok / elapsed,
    firstFrameMs: summary(first),
    firstUpdateMs: summary(update),
    runMs: summary(total),
    threadCreateMs: summary(threadTimes),
    statuses,
    warmupErrors,
    warmupStatuses,
    loadCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

// check streams every row of the schedule once on its own thread and
// returns, per run, the nodes that ran and the trip the state ends with.
async function check(o) {
  const client = newClient(o);
  const rows = [];
  for (const row of w.schedule) {
    const threadId = await createThread(client, []);
    const runs = [];
    for (let turn = 0; turn < row.length; turn++) {
      const m = await streamRun(client, threadId, message(row[turn], turn));
      const td = m.last?.tripDetails;
      runs.push({
        request: row[turn],
        error: m.error,
        nodes: m.nodes,
        trip: td ? { location: td.location, guests: td.numberOfGuests } : null,
      });
    }
    rows.push(runs);
  }
  return { rows, statuses };
}

const o = parseArgs(process.argv.slice(2));
const out = o.check ? await check(o) : await load(o);
console.log(JSON.stringify(out));
