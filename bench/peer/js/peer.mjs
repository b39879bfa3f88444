// The trip planner's graph on LangGraph.js, with the same deterministic
// nodes and the same workload as the Go program in the parent directory.
//
//   node peer.mjs dump    [--saver memory|postgres] [--db URL] [--delta] [--short]
//   node peer.mjs run     --saver memory|postgres [--db URL] [--seconds N] [--delta]
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
import { Annotation, DeltaChannel, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";

const w = JSON.parse(readFileSync(new URL("../workload.json", import.meta.url), "utf8"));
const byText = new Map(w.requests.map((r) => [r.text, r]));
const DAY = 24 * 60 * 60 * 1000;
const HOTELS = 5;
const LEAD_DAYS = 28;
const STAY_DAYS = 7;
const DEFAULT_GUESTS = 2;
const WARM_TURNS_POSTGRES = 2;
const askLocation = { en: "Where would you like to go?", pt: "Para onde você gostaria de ir?" };
const hotelNames = ["Grand Hotel", "Riverside Apartments", "Old Town Guesthouse", "Central Hostel", "Harbour View Hotel"];
const hotelKinds = ["hotel", "apartment", "guesthouse", "hostel", "hotel"];

// ---- state ----

const concat = (list, more) => list.concat(more);

// upsertUI replaces the component with the same id or appends it; the list
// it was given is not changed.
function upsertUI(list, components) {
  const out = list.slice();
  for (const c of components) {
    const i = out.findIndex((o) => o.id === c.id);
    if (i < 0) out.push(c);
    else out[i] = c;
  }
  return out;
}

const foldMessages = (list, writes) => writes.reduce(concat, list);
const foldUI = (list, writes) => writes.reduce(upsertUI, list);

function stateDefinition(delta) {
  const accumulating = (reducer, fold) =>
    delta ? () => new DeltaChannel(fold) : Annotation({ reducer, default: () => [] });
  return Annotation.Root({
    messages: accumulating(concat, foldMessages),
    ui: accumulating(upsertUI, foldUI),
    timestamp: Annotation({ reducer: (_, b) => b, default: () => 0 }),
    tripDetails: Annotation(),
    intent: Annotation(),
    language: Annotation(),
  });
}

// ---- routers, as in the Go planner ----

const routeStart = (s) => (s.tripDetails ? "classify" : "extraction");
const routeAfterClassifying = (s) => (s.tripDetails ? "callTools" : "extraction");
const routeAfterExtraction = (s) => (s.tripDetails || s.intent === "photos" ? "callTools" : END);

// ---- nodes ----

const clock = (s, ordinal) => w.epochMs + 60_000 * s.messages.length + ordinal;

function lookup(text) {
  const r = byText.get(text);
  if (!r) throw new Error(`the message ${JSON.stringify(text)} is not one of the workload's requests`);
  return r;
}

function lastHuman(s) {
  for (let i = s.messages.length - 1; i >= 0; i--) if (s.messages[i].type === "human") return s.messages[i].content;
  return "";
}

function classify(s) {
  const td = s.tripDetails;
  if (!td) return {};
  const r = lookup(lastHuman(s));
  const changed =
    (r.location && r.location !== td.location) ||
    (r.startDate && r.startDate !== td.startDate) ||
    (r.endDate && r.endDate !== td.endDate) ||
    (r.guests && r.guests !== td.numberOfGuests);
  return changed ? { timestamp: clock(s, 1), tripDetails: null } : { timestamp: clock(s, 1) };
}

function amend(said, later) {
  if (later.location) {
    return { location: later.location, startDate: later.startDate, endDate: later.endDate, guests: later.guests };
  }
  return {
    ...said,
    startDate: later.startDate || said.startDate,
    endDate: later.endDate || said.endDate,
    guests: later.guests || said.guests,
  };
}

const parseDate = (d) => (d ? Date.parse(d + "T00:00:00Z") : undefined);
const formatDate = (ms) => new Date(ms).toISOString().slice(0, 10);

function resolve(said) {
  let start = parseDate(said.startDate);
  let end = parseDate(said.endDate);
  if (start === undefined && end === undefined) {
    start = parseDate(w.today) + LEAD_DAYS * DAY;
    end = start + STAY_DAYS * DAY;
  } else if (end === undefined) {
    end = start + STAY_DAYS * DAY;
  } else if (start === undefined) {
    start = end - STAY_DAYS * DAY;
  }
  const td = { location: said.location };
  const country = w.places[said.location].country;
  if (country) td.country = country;
  td.startDate = formatDate(start);
  td.endDate = formatDate(end);
  td.numberOfGuests = said.guests || DEFAULT_GUESTS;
  return td;
}

function extraction(s) {
  const latest = lookup(lastHuman(s));
  const u = { timestamp: clock(s, 2), intent: latest.intent, language: latest.language };
  let said = {};
  for (const m of s.messages) if (m.type === "human") said = amend(said, lookup(m.content));
  if (!said.location) {
    u.messages = [{ id: `ai-${s.messages.length}`, type: "ai", content: askLocation[latest.language] }];
    return u;
  }
  u.tripDetails = resolve(said);
  return u;
}

const nights = (td) => Math.round((parseDate(td.endDate) - parseDate(td.startDate)) / DAY);

function hotels(td) {
  const at = w.places[td.location];
  const slug = td.location.toLowerCase().replaceAll(" ", "-");
  const out = [];
  for (let i = 0; i < HOTELS; i++) {
    const id = `${slug}-${i + 1}`;
    const nightly = 80 + 25 * i + 5 * td.numberOfGuests;
    out.push({
      id,
      name: `${td.location} ${hotelNames[i]}`,
      kind: hotelKinds[i],
      nightlyPrice: nightly,
      currency: "EUR",
      totalPrice: nightly * nights(td),
      rating: (45 - 2 * i) / 10,
      imageUrl: `https://images.invalid/hotels/${id}.jpg`,
      capacity: td.numberOfGuests + i,
      lat: at.lat + i / 100,
      lng: at.lng - i / 100,
    });
  }
  return out;
}

function answer(lang, td) {
  return lang === "pt"
    ? `Aqui estão ${HOTELS} lugares para ficar em ${td.location} de ${td.startDate} a ${td.endDate} para ${td.numberOfGuests} pessoas.`
    : `Here are ${HOTELS} places to stay in ${td.location} from ${td.startDate} to ${td.endDate} for ${td.numberOfGuests} guests.`;
}

function callTools(s) {
  const td = s.tripDetails;
  if (!td) throw new Error("callTools ran without trip details");
  const n = s.messages.length;
  const msgId = `ai-${n}`;
  const callId = `call-${n}`;
  const props = {
    toolCallId: callId,
    tool: "list-accommodations",
    tripDetails: td,
    location: td.location,
    covered: true,
    startDate: td.startDate,
    endDate: td.endDate,
    nights: nights(td),
    guests: td.numberOfGuests,
    accommodations: hotels(td),
  };
  return {
    messages: [{ id: msgId, type: "ai", content: answer(s.language, td) }],
    ui: [{ id: callId, name: "accommodations-list", props, messageId: msgId }],
    timestamp: clock(s, 3),
  };
}

function tripGraph(checkpointer, delta) {
  return new StateGraph(stateDefinition(delta))
    .addNode("classify", classify)
    .addNode("extraction", extraction)
    .addNode("callTools", callTools)
    .addConditionalEdges(START, routeStart, ["classify", "extraction"])
    .addConditionalEdges("classify", routeAfterClassifying, ["extraction", "callTools"])
    .addConditionalEdges("extraction", routeAfterExtraction, ["callTools", END])
    .addEdge("callTools", END)
    .compile({ checkpointer });
}

// ---- the workload ----

const input = (requestIndex, turn) => ({
  messages: [{ id: `human-${turn}`, type: "human", content: w.requests[requestIndex].text }],
});

// Each checkpoint is saved before the next step runs, as tripgraph does.
const runConfig = (threadId) => ({ configurable: { thread_id: threadId }, durability: "sync" });

async function openSaver(kind, db) {
  if (kind === "memory") return { saver: new MemorySaver(), close: async () => {} };
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
      const saver = opts.saver === "memory" ? new MemorySaver() : s.saver;
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
