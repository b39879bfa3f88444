// The trip planner's graph on LangGraph.js: state, routers and the
// deterministic nodes of the workload in ../workload.json. It takes the
// LangGraph.js module it is built with, so that the engine benchmark
// (peer.mjs, in this directory) and the API server benchmark
// (bench/serverpeer/js) build the same graph from their own installs.

import { readFileSync } from "node:fs";

export const workload = JSON.parse(readFileSync(new URL("../workload.json", import.meta.url), "utf8"));
const DAY = 24 * 60 * 60 * 1000;
const HOTELS = 5;
const LEAD_DAYS = 28;
const STAY_DAYS = 7;
const DEFAULT_GUESTS = 2;
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

function stateDefinition(lg, delta) {
  const { Annotation, DeltaChannel } = lg;
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
const routeAfterExtraction = (END) => (s) => (s.tripDetails || s.intent === "photos" ? "callTools" : END);

// ---- nodes ----

// nodesFor returns the nodes that read workload w: its requests (looked up
// by their text), places, today and epoch.
function nodesFor(w) {
  const byText = new Map(w.requests.map((r) => [r.text, r]));

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

  return { classify, extraction, callTools };
}

// tripGraph compiles the graph with the given LangGraph.js module (the
// namespace of "@langchain/langgraph"), checkpointer and channels (delta:
// DeltaChannels for messages and ui), for workload w.
export function tripGraph(lg, checkpointer, delta, w = workload) {
  const { END, START, StateGraph } = lg;
  const { classify, extraction, callTools } = nodesFor(w);
  return new StateGraph(stateDefinition(lg, delta))
    .addNode("classify", classify)
    .addNode("extraction", extraction)
    .addNode("callTools", callTools)
    .addConditionalEdges(START, routeStart, ["classify", "extraction"])
    .addConditionalEdges("classify", routeAfterClassifying, ["extraction", "callTools"])
    .addConditionalEdges("extraction", routeAfterExtraction(END), ["callTools", END])
    .addEdge("callTools", END)
    .compile({ checkpointer });
}

// shiftYears returns workload w with every date, in its requests' texts and
// fields and its today, moved years later: a server that refuses dates in
// the past (tripgraph's planner does) then reads the requests as the
// workload means them.
export function shiftYears(w, years) {
  const shift = (text) => text.replace(/\b(20\d\d)-(\d\d)-(\d\d)\b/g, (_, y, m, d) => `${Number(y) + years}-${m}-${d}`);
  const requests = w.requests.map((r) => {
    const out = { ...r, text: shift(r.text) };
    for (const k of ["startDate", "endDate"]) if (r[k]) out[k] = shift(r[k]);
    return out;
  });
  return { ...w, today: shift(w.today), requests };
}

// futureWorkload is the workload shifted by the fewest whole years that
// put all of its dates after today.
export function futureWorkload(now = new Date()) {
  const today = now.toISOString().slice(0, 10);
  const dates = workload.requests.flatMap((r) => [r.startDate, r.endDate]).filter(Boolean).sort();
  let years = 0;
  while (shiftYears({ today: dates[0], requests: [] }, years).today <= today) years++;
  return shiftYears(workload, years);
}
