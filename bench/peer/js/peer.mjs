// The trip planner's graph on LangGraph.js, with the same deterministic
// nodes and the same workload as the Go program in the parent directory.
//
//   node peer.mjs dump    [--saver memory|postgres] [--db URL] [--delta] [--short]
//   node peer.mjs run     --saver memory|postgres [--db URL] [--seconds N] [--delta] [--durability sync|async]
//   node peer.mjs storage --db URL [--delta]
//
// dump prints the final state of every thread and of the long thread, read
// back from the saver; run prints how many runs it timed and for how long;
// storage writes the long thread to PostgreSQL and prints its final state.
// --short leaves the long thread out of the dump.
// --delta keeps messages and ui in DeltaChannels instead of reducer
// channels.

import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import * as lg from "@langchain/langgraph";
import { tripGraph as build, workload as w } from "./trip.mjs";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";

const WARM_TURNS_POSTGRES = 2;
const tripGraph = (checkpointer, delta) => build(lg, checkpointer, delta);

// ---- the workload ----

const input = (requestIndex, turn) => ({
  messages: [{ id: `human-${turn}`, type: "human", content: w.requests[requestIndex].text }],
});

// "sync" saves each checkpoint before the next step runs, as tripgraph
// does by default; "async", LangGraph's default, saves it while the next
// step runs. run takes --durability; dump and storage use sync.
let durability = "sync";
const runConfig = (threadId) => ({ configurable: { thread_id: threadId }, durability });

async function openSaver(kind, db) {
  if (kind === "memory") return { saver: new lg.MemorySaver(), close: async () => {} };
  if (kind !== "postgres") throw new Error(`unknown saver ${kind}: want memory or postgres`);
  if (!db) throw new Error("--db is required with the postgres saver");
  const saver = PostgresSaver.fromConnString(db);
  await saver.setup();
  return { saver, close: () => saver.end() };
}

// pass runs the first turns of the workload once on new threads, turn by
// turn across threads, and returns the thread ids and the milliseconds
// spent in runs.
async function pass(graph, turns = w.schedule[0].length) {
  const threads = w.schedule.map(() => randomUUID());
  const start = performance.now();
  for (let turn = 0; turn < turns; turn++) {
    for (let t = 0; t < threads.length; t++) {
      await graph.invoke(input(w.schedule[t][turn], turn), runConfig(threads[t]));
    }
  }
  return { threads, ms: performance.now() - start };
}

async function finalState(graph, threadId) {
  return (await graph.getState({ configurable: { thread_id: threadId } })).values;
}

async function runLong(graph) {
  const thread = randomUUID();
  const turns = w.schedule.flat();
  for (let turn = 0; turn < turns.length; turn++) await graph.invoke(input(turns[turn], turn), runConfig(thread));
  return finalState(graph, thread);
}

// peakRSS is the process's peak resident set size (VmHWM), in bytes.
// process.resourceUsage().maxRSS would not do: Linux carries it across
// execve, so it can report the parent's peak.
function peakRSS() {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
  if (!m) throw new Error("no VmHWM in /proc/self/status");
  return Number(m[1]) * 1024;
}

async function round(opts) {
  const s = await openSaver(opts.saver, opts.db);
  try {
    let runs = 0;
    let ms = 0;
    let passes = 0;
    let cpuMicros = 0;
    for (let i = 0; i < 2 || ms / 1000 < opts.seconds; i++) { // a warm-up pass, then at least one timed pass
      const saver = opts.saver === "memory" ? new lg.MemorySaver() : s.saver;
      // The warm-up pass: the whole workload in memory, its first turns on
      // PostgreSQL.
      const turns = i === 0 && opts.saver === "postgres" ? WARM_TURNS_POSTGRES : w.schedule[0].length;
      const cpuBefore = process.cpuUsage();
      const { threads, ms: took } = await pass(tripGraph(saver, opts.delta), turns);
      if (i === 0) continue; // the warm-up pass
      const cpu = process.cpuUsage(cpuBefore);
      cpuMicros += cpu.user + cpu.system;
      ms += took;
      runs += threads.length * turns;
      passes++;
    }
    return { runs, seconds: ms / 1000, cpuSeconds: cpuMicros / 1e6, passes, peakRSS: peakRSS() };
  } finally {
    await s.close();
  }
}

async function dump(opts) {
  const s = await openSaver(opts.saver, opts.db);
  try {
    const graph = tripGraph(s.saver, opts.delta);
    const { threads } = await pass(graph);
    const states = [];
    for (const id of threads) states.push(await finalState(graph, id));
    return opts.short ? { threads: states } : { threads: states, long: await runLong(graph) };
  } finally {
    await s.close();
  }
}

async function storage(opts) {
  const s = await openSaver("postgres", opts.db);
  try {
    return await runLong(tripGraph(s.saver, opts.delta));
  } finally {
    await s.close();
  }
}

function parseArgs(argv) {
  const opts = { mode: argv[0], saver: "memory", db: "", seconds: 2, delta: false, short: false };
  for (let i = 1; i < argv.length; i++) {
    switch (argv[i]) {
      case "--saver": opts.saver = argv[++i]; break;
      case "--db": opts.db = argv[++i]; break;
      case "--seconds": opts.seconds = Number(argv[++i]); break;
      case "--delta": opts.delta = true; break;
      case "--short": opts.short = true; break;
      case "--durability": durability = argv[++i]; break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return opts;
}

const modes = { dump, run: round, storage };
const opts = parseArgs(process.argv.slice(2));
if (!modes[opts.mode]) {
  console.error("usage: node peer.mjs dump|run|storage [--saver memory|postgres] [--db URL] [--seconds N] [--delta]");
  process.exit(2);
}
process.stdout.write(JSON.stringify(await modes[opts.mode](opts)) + "\n");
