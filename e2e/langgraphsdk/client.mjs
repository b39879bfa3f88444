// Drives a running tripgraph serve with the official LangGraph JavaScript
// client: TRIPGRAPH_URL and TRIPGRAPH_API_KEY say where and as whom. Every
// call's answer is checked; the script exits non-zero at the first
// mismatch and prints "ok" when all hold.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";

const client = new Client({ apiUrl: process.env.TRIPGRAPH_URL, apiKey: process.env.TRIPGRAPH_API_KEY });

// assistants.search finds the one assistant, and its graph can be drawn.
const assistants = await client.assistants.search({ graphId: "trip-planner" });
assert.equal(assistants.length, 1);
const assistant = assistants[0];
assert.equal(assistant.graph_id, "trip-planner");
const graph = await client.assistants.getGraph(assistant.assistant_id);
assert.ok(graph.nodes.some((n) => n.id === "extraction"));
assert.ok(graph.edges.some((e) => e.source === "extraction" && e.target === "callTools" && e.conditional));

// threads.create, and the empty state of a new thread.
const thread = await client.threads.create({ metadata: { purpose: "sdk" } });
assert.match(thread.thread_id, /^[0-9a-f-]{36}$/);
assert.equal(thread.status, "idle");
assert.deepEqual((await client.threads.getState(thread.thread_id)).values, {});

// threads.updateState writes checkpoints: a message as the start of a turn,
// then trip details as extraction would return them.
const first = await client.threads.updateState(thread.thread_id, {
  values: { messages: [{ type: "human", content: "4 nights in Lisbon in May, 3 of us" }] },
  asNode: "__start__",
});
assert.equal(first.checkpoint.thread_id, thread.thread_id);
let state = await client.threads.getState(thread.thread_id);
assert.equal(state.values.messages.length, 1);
assert.deepEqual(state.next, ["extraction"]);
assert.equal(state.tasks[0].name, "extraction");
assert.equal(state.checkpoint.checkpoint_id, first.checkpoint.checkpoint_id);

const trip = { location: "Lisbon", country: "Portugal", startDate: "2027-05-01", endDate: "2027-05-05", numberOfGuests: 3 };
await client.threads.updateState(thread.thread_id, { values: { tripDetails: trip }, asNode: "extraction" });
state = await client.threads.getState(thread.thread_id);
assert.deepEqual(state.values.tripDetails, trip);
assert.deepEqual(state.next, ["callTools"]);
assert.equal(state.metadata.source, "update");
assert.equal(state.parent_checkpoint.checkpoint_id, first.checkpoint.checkpoint_id);

// threads.getHistory: newest first, paged with before.
const history = await client.threads.getHistory(thread.thread_id);
assert.equal(history.length, 2);
assert.equal(history[0].checkpoint.checkpoint_id, state.checkpoint.checkpoint_id);
assert.equal(history[1].checkpoint.checkpoint_id, first.checkpoint.checkpoint_id);
const older = await client.threads.getHistory(thread.thread_id, { limit: 5, before: { configurable: { checkpoint_id: history[0].checkpoint.checkpoint_id } } });
assert.deepEqual(older.map((s) => s.checkpoint.checkpoint_id), [first.checkpoint.checkpoint_id]);

// threads.getState at a checkpoint, by id and by checkpoint object.
const byID = await client.threads.getState(thread.thread_id, first.checkpoint.checkpoint_id);
assert.equal(byID.values.tripDetails, undefined);
const byObject = await client.threads.getState(thread.thread_id, history[1].checkpoint);
assert.equal(byObject.checkpoint.checkpoint_id, first.checkpoint.checkpoint_id);

// A refused update: the client sees the status and the error code.
await assert.rejects(
  client.threads.updateState(thread.thread_id, { values: { mood: "happy" } }),
  (err) => err.status === 422 && JSON.parse(err.text).fields[0].field === "values.mood",
);

// threads.get, search, update, copy and delete.
assert.equal((await client.threads.get(thread.thread_id)).values.tripDetails.location, "Lisbon");
const found = await client.threads.search({ metadata: { purpose: "sdk" } });
assert.deepEqual(found.map((t) => t.thread_id), [thread.thread_id]);
const patched = await client.threads.update(thread.thread_id, { metadata: { stage: "planned" } });
assert.deepEqual(patched.metadata, { purpose: "sdk", stage: "planned" });
const copy = await client.threads.copy(thread.thread_id);
assert.notEqual(copy.thread_id, thread.thread_id);
assert.equal((await client.threads.getHistory(copy.thread_id)).length, 2);
await client.threads.delete(copy.thread_id);
await assert.rejects(client.threads.get(copy.thread_id), (err) => err.status === 404 && err.message === `HTTP 404: Thread with ID ${copy.thread_id} not found`);
await assert.rejects(client.threads.get(randomUUID()), (err) => err.status === 404);

// runs.stream in four modes: the metadata frame names the run, the UI
// components arrive as custom events, tokens as messages tuples, and the
// final values hold the whole turn.
const lisbon = "4 nights in Lisbon in May, 3 of us";
const runThread = await client.threads.create();
const chunks = [];
for await (const chunk of client.runs.stream(runThread.thread_id, assistant.assistant_id, {
  input: { messages: [{ role: "user", content: lisbon }] },
  streamMode: ["values", "updates", "custom", "messages-tuple"],
})) {
  chunks.push(chunk);
}
assert.equal(chunks[0].event, "metadata");
assert.match(chunks[0].data.run_id, /^[0-9a-f-]{36}$/);
const kinds = new Set(chunks.map((c) => c.event));
for (const kind of ["values", "updates", "custom", "messages"]) assert.ok(kinds.has(kind), `no ${kind} event`);
const components = chunks.filter((c) => c.event === "custom" && c.data.type === "ui").map((c) => c.data.name);
assert.ok(components.includes("trip-details"), `components ${components}`);
assert.ok(components.includes("accommodations-list"), `components ${components}`);
const tuple = chunks.find((c) => c.event === "messages").data;
assert.equal(tuple.length, 2);
assert.ok(tuple[0].id);
const finalValues = chunks.filter((c) => c.event === "values").at(-1).data;
assert.equal(finalValues.messages[0].content, lisbon);
assert.equal(finalValues.tripDetails.location, "Lisbon");
assert.deepEqual(finalValues.ui.map((u) => u.name).slice(0, 2), ["trip-details", "accommodations-list"]);
const streamed = await client.runs.get(runThread.thread_id, chunks[0].data.run_id);
assert.equal(streamed.status, "success");

// --- stream modes debug and events, run options: begin ---
// runs.stream in debug and events modes: debug frames pair each task with
// its result and end on the thread's head checkpoint; events frames open
// and close the run's chain around its nodes, tokens and UI components.
{
  const modesThread = await client.threads.create();
  const frames = [];
  for await (const chunk of client.runs.stream(modesThread.thread_id, assistant.assistant_id, {
    input: { messages: [{ role: "user", content: lisbon }] },
    streamMode: ["debug", "events"],
  })) {
    frames.push(chunk);
  }
  assert.equal(frames[0].event, "metadata");
  assert.equal(frames.at(-1).event, "events"); // the last frame is the last event: nothing marks the end
  const runId = frames[0].data.run_id;
  const debug = frames.filter((c) => c.event === "debug").map((c) => c.data);
  const events = frames.filter((c) => c.event === "events").map((c) => c.data);
  assert.equal(debug.length + events.length, frames.length - 1, `frames ${frames.map((c) => c.event)}`);
  const openTasks = new Map();
  for (const d of debug) {
    assert.ok(["checkpoint", "task", "task_result"].includes(d.type), `debug type ${d.type}`);
    assert.ok(!Number.isNaN(Date.parse(d.timestamp)) && Number.isInteger(d.step));
    if (d.type === "task") openTasks.set(d.payload.id, d.payload.name);
    if (d.type === "task_result") {
      assert.equal(openTasks.get(d.payload.id), d.payload.name);
      openTasks.delete(d.payload.id);
    }
  }
  assert.equal(openTasks.size, 0);
  assert.ok(debug.some((d) => d.type === "task" && d.payload.name === "extraction" && d.payload.input.messages[0].content === lisbon));
  const lastCheckpoint = debug.filter((d) => d.type === "checkpoint").at(-1).payload;
  assert.equal(lastCheckpoint.values.tripDetails.location, "Lisbon");
  const head = await client.threads.getState(modesThread.thread_id);
  assert.equal(lastCheckpoint.config.configurable.checkpoint_id, head.checkpoint.checkpoint_id);
  assert.deepEqual(lastCheckpoint.next, []);

  assert.equal(events[0].event, "on_chain_start");
  assert.equal(events[0].name, "trip-planner");
  assert.equal(events[0].run_id, runId);
  assert.equal(events.at(-1).event, "on_chain_end");
  assert.equal(events.at(-1).data.output.tripDetails.location, "Lisbon");
  assert.ok(events.some((e) => e.event === "on_chain_start" && e.name === "extraction" && e.parent_ids[0] === runId));
  assert.ok(events.some((e) => e.event === "on_chat_model_stream" && typeof e.data.chunk.content === "string"));
  const uiNames = events.filter((e) => e.event === "on_custom_event" && e.data.type === "ui").map((e) => e.data.name);
  assert.ok(uiNames.includes("trip-details"), `ui events ${uiNames}`);

  // Joined again in debug alone: the same debug frames, nothing else.
  const rejoined = [];
  for await (const chunk of client.runs.joinStream(modesThread.thread_id, runId, { streamMode: "debug" })) {
    rejoined.push(chunk);
  }
  assert.deepEqual(rejoined.slice(1).map((c) => c.data), debug);

  // Options: exit durability writes the run's last checkpoint only.
  const before = (await client.threads.getHistory(modesThread.thread_id, { limit: 100 })).length;
  await client.runs.wait(modesThread.thread_id, assistant.assistant_id, {
    input: { messages: [{ role: "user", content: "thank you" }] },
    durability: "exit",
  });
  assert.equal((await client.threads.getHistory(modesThread.thread_id, { limit: 100 })).length, before + 1);

  // A breakpoint before callTools stops the run there; a run with a null
  // input goes on. A breakpoint at no node of the graph is refused.
  const breakThread = await client.threads.create();
  const stopped = await client.runs.create(breakThread.thread_id, assistant.assistant_id, {
    input: { messages: [{ role: "user", content: lisbon }] },
    interruptBefore: ["callTools"],
  });
  await client.runs.join(breakThread.thread_id, stopped.run_id);
  assert.equal((await client.runs.get(breakThread.thread_id, stopped.run_id)).status, "interrupted");
  assert.equal((await client.threads.get(breakThread.thread_id)).status, "interrupted");
  const due = await client.threads.getState(breakThread.thread_id);
  assert.deepEqual(due.next, ["callTools"]);
  assert.equal(due.values.tripDetails.location, "Lisbon");
  const went = await client.runs.wait(breakThread.thread_id, assistant.assistant_id, { input: null });
  assert.ok(went.ui.some((u) => u.name === "accommodations-list"), `ui ${went.ui.map((u) => u.name)}`);
  assert.deepEqual((await client.threads.getState(breakThread.thread_id)).next, []);
  await assert.rejects(
    client.runs.wait(breakThread.thread_id, assistant.assistant_id, {
      input: { messages: [{ role: "user", content: "hi" }] },
      interruptAfter: ["nowhere"],
    }),
    (err) => err.status === 422 && JSON.parse(err.text).fields[0].field === "interrupt_after",
  );
}
// --- stream modes debug and events, run options: end ---

// runs.wait answers with the thread's values after the run.
const waited = await client.runs.wait(runThread.thread_id, assistant.assistant_id, {
  input: { messages: [{ role: "user", content: "thank you" }] },
});
assert.equal(waited.messages.length, finalValues.messages.length + 2);

// A background run, joined with runs.joinStream.
const background = await client.runs.create(runThread.thread_id, assistant.assistant_id, {
  input: { messages: [{ role: "user", content: "and restaurants there?" }] },
});
assert.equal(background.thread_id, runThread.thread_id);
const joined = [];
for await (const chunk of client.runs.joinStream(runThread.thread_id, background.run_id, { streamMode: ["values"] })) {
  joined.push(chunk);
}
assert.equal(joined[0].event, "metadata");
assert.ok(joined.length > 1 && joined.slice(1).every((c) => c.event === "values"));
assert.equal((await client.runs.join(runThread.thread_id, background.run_id)).messages.length, waited.messages.length + 2);
const listed = await client.runs.list(runThread.thread_id);
assert.equal(listed.length, 3);

// runs.cancel: an enqueued run behind an active one is cancelled before
// it starts; the client sees it so, and the thread never holds its input.
// The first run is delayed (afterSeconds), so that it holds the thread
// while the second waits behind it, however fast runs end.
{
  const cancelThread = await client.threads.create();
  const first = await client.runs.create(cancelThread.thread_id, assistant.assistant_id, {
    input: { messages: [{ role: "user", content: lisbon }] },
    afterSeconds: 2,
  });
  const second = await client.runs.create(cancelThread.thread_id, assistant.assistant_id, {
    input: { messages: [{ role: "user", content: "never mind" }] },
    multitaskStrategy: "enqueue",
  });
  await client.runs.cancel(cancelThread.thread_id, second.run_id, true);
  assert.equal((await client.runs.get(cancelThread.thread_id, second.run_id)).status, "interrupted");
  await client.runs.join(cancelThread.thread_id, first.run_id);
  assert.equal((await client.runs.get(cancelThread.thread_id, first.run_id)).status, "success");
  const afterCancel = await client.threads.getState(cancelThread.thread_id);
  assert.ok(!afterCancel.values.messages.some((m) => m.content === "never mind"));
}

// A booking asked for directly: the run pauses on the confirmation (an
// interrupt with the booking's summary), and command.resume answers it.
const bookThread = await client.threads.create();
const planned = await client.runs.wait(bookThread.thread_id, assistant.assistant_id, {
  input: { messages: [{ role: "user", content: lisbon }] },
});
const place = planned.ui.find((u) => u.name === "accommodations-list").props.accommodations[0];
const plannedTrip = planned.tripDetails;
const asked = [];
for await (const chunk of client.runs.stream(bookThread.thread_id, assistant.assistant_id, {
  input: {
    messages: [{ role: "user", content: `Book ${place.name}` }],
    bookingRequest: { id: place.id, startDate: plannedTrip.startDate, endDate: plannedTrip.endDate, guests: plannedTrip.numberOfGuests },
  },
  streamMode: ["updates"],
})) {
  asked.push(chunk);
}
const pause = asked.find((c) => c.event === "updates" && c.data.__interrupt__);
assert.ok(pause, `no interrupt in ${JSON.stringify(asked.map((c) => c.event))}`);
const ask = pause.data.__interrupt__[0].value;
assert.equal(ask.name, "booking-confirmation");
assert.equal(ask.props.status, "pending");
assert.equal(ask.props.accommodationId, place.id);
assert.equal(ask.props.total, Math.round(ask.props.nights * ask.props.nightlyPrice * 100) / 100);
const paused = await client.threads.getState(bookThread.thread_id);
assert.equal(paused.tasks[0].interrupts[0].value.props.key, ask.props.key);
assert.equal((await client.threads.get(bookThread.thread_id)).status, "interrupted");
const booked = await client.runs.wait(bookThread.thread_id, assistant.assistant_id, {
  command: { resume: { confirmed: true, key: ask.props.key } },
});
const card = booked.ui.find((u) => u.id === ask.id);
assert.equal(card.props.status, "booked");
assert.ok(card.props.bookingId);
assert.equal(booked.bookingRequest, undefined);
assert.equal((await client.threads.get(bookThread.thread_id)).status, "idle");

// A fork: from the checkpoint before the first extraction, another message
// makes another trip on a new branch; the old branch keeps its booking.
const bookedHead = (await client.threads.getState(bookThread.thread_id)).checkpoint.checkpoint_id;
const turns = await client.threads.getHistory(bookThread.thread_id, { limit: 100 });
const beforeExtraction = turns.filter((s) => s.next.includes("extraction")).at(-1);
const forked = await client.runs.wait(bookThread.thread_id, assistant.assistant_id, {
  input: { messages: [{ role: "user", content: "3 nights in Porto in June, 2 of us" }] },
  checkpointId: beforeExtraction.checkpoint.checkpoint_id,
});
assert.equal(forked.tripDetails.location, "Porto");
assert.ok(!forked.ui.some((u) => u.name === "booking-confirmation"));
const oldBranch = await client.threads.getState(bookThread.thread_id, bookedHead);
assert.equal(oldBranch.values.tripDetails.location, "Lisbon");
assert.equal(oldBranch.values.ui.find((u) => u.id === ask.id).props.status, "booked");

// Another key is another user: the thread is not found for it.
if (process.env.TRIPGRAPH_OTHER_KEY) {
  const other = new Client({ apiUrl: process.env.TRIPGRAPH_URL, apiKey: process.env.TRIPGRAPH_OTHER_KEY });
  await assert.rejects(other.threads.getState(thread.thread_id), (err) => err.status === 404);
}

console.log("ok");
