// What LangGraph's own clients and test suite rely on, checked with the
// official JavaScript client against a running tripgraph serve
// (TRIPGRAPH_URL, TRIPGRAPH_API_KEY for a user of its own, TRIPGRAPH_OTHER_KEY
// for another): assistants, thread searches and state, run bodies, stream
// modes and what ends a stream, errors, the generative UI and the booking
// confirmation as a human-in-the-loop interrupt. Exits non-zero at the
// first mismatch; prints "ok" when all hold.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";

const url = process.env.TRIPGRAPH_URL;
const key = process.env.TRIPGRAPH_API_KEY;
const client = new Client({ apiUrl: url, apiKey: key });
const other = new Client({ apiUrl: url, apiKey: process.env.TRIPGRAPH_OTHER_KEY });
const GRAPH = "trip-planner";
const lisbon = "4 nights in Lisbon in May, 3 of us";
const gather = async (iterable) => {
  const out = [];
  for await (const chunk of iterable) out.push(chunk);
  return out;
};
const raw = (path, init = {}) =>
  fetch(url + path, { ...init, headers: { "x-api-key": key, ...(init.headers ?? {}) } });

// --- assistants ---
{
  const created = await client.assistants.create({ graphId: GRAPH, config: { configurable: { tone: "warm" } }, description: "foo" });
  assert.equal(created.name, "Untitled");
  assert.equal(created.version, 1);
  assert.equal(created.description, "foo");
  const again = await client.assistants.create({ graphId: GRAPH, assistantId: created.assistant_id, ifExists: "do_nothing" });
  assert.equal(again.assistant_id, created.assistant_id);
  await assert.rejects(client.assistants.create({ graphId: GRAPH, assistantId: created.assistant_id }), (e) => e.status === 409);
  await assert.rejects(client.assistants.create({ graphId: "agent" }), (e) => e.status === 404);

  await client.assistants.update(created.assistant_id, { metadata: { name: "woof" }, description: "bar" });
  await client.assistants.update(created.assistant_id, {});
  const read = await client.assistants.get(created.assistant_id);
  assert.deepEqual([read.version, read.description, read.metadata.name, read.config.configurable.tone], [3, "bar", "woof", "warm"]);
  assert.deepEqual((await client.assistants.getVersions(created.assistant_id)).map((v) => v.version), [3, 2, 1]);
  assert.deepEqual((await client.assistants.getVersions(created.assistant_id, { metadata: { name: "woof" } })).map((v) => v.version), [3, 2]);
  assert.equal((await client.assistants.setLatest(created.assistant_id, 1)).version, 1);
  await assert.rejects(client.assistants.setLatest(created.assistant_id, 9), (e) => e.status === 404);

  const named = await client.assistants.search({ name: "TITLED" });
  assert.deepEqual(named.map((a) => a.assistant_id), [created.assistant_id]);
  const parts = await client.assistants.search({ name: "-PLAN" });
  assert.deepEqual(parts.map((a) => a.name), [GRAPH]);
  const slim = await client.assistants.search({ graphId: GRAPH, select: ["assistant_id", "name"], sortBy: "name", sortOrder: "asc" });
  assert.deepEqual(slim.map((a) => Object.keys(a).sort()), [["assistant_id", "name"], ["assistant_id", "name"]]);
  assert.equal(await client.assistants.count({ graphId: GRAPH }), 2);
  assert.equal(await other.assistants.count(), 1);

  const schemas = await client.assistants.getSchemas(GRAPH);
  assert.equal(schemas.graph_id, GRAPH);
  assert.ok(schemas.state_schema.properties.messages && schemas.input_schema.properties.messages);
  assert.deepEqual(await client.assistants.getSubgraphs(GRAPH), {});
  const drawn = await client.assistants.getGraph(GRAPH);
  const node = drawn.nodes.find((n) => n.id === "extraction");
  assert.deepEqual(node, { id: "extraction", type: "runnable", data: { id: ["langgraph", "RunnableCallable"], name: "extraction" } });
  assert.equal(drawn.nodes.find((n) => n.id === "__start__").type, "schema");

  // A run of the user's assistant stamps its thread; deleting the
  // assistant with its threads deletes that thread.
  const thread = await client.threads.create();
  await client.runs.wait(thread.thread_id, created.assistant_id, { input: { messages: [{ role: "user", content: "hi" }] } });
  const stamped = await client.threads.get(thread.thread_id);
  assert.equal(stamped.metadata.assistant_id, created.assistant_id);
  assert.equal(stamped.metadata.graph_id, GRAPH);
  const byAssistant = await client.threads.search({ metadata: { assistant_id: created.assistant_id } });
  assert.deepEqual(byAssistant.map((t) => t.thread_id), [thread.thread_id]);
  await client.assistants.delete(created.assistant_id, { deleteThreads: true });
  await assert.rejects(client.assistants.get(created.assistant_id), { message: "HTTP 404: Assistant not found" });
  await assert.rejects(client.threads.get(thread.thread_id), { message: `HTTP 404: Thread with ID ${thread.thread_id} not found` });
  await assert.rejects(client.runs.wait(null, "nobody", { input: { messages: [{ role: "user", content: "hi" }] } }), /No assistant found for "nobody"/);
}

// --- threads: search, state, history, supersteps ---
{
  const info = await (await fetch(url + "/info")).json();
  assert.equal(info.flags.assistants, true);

  const first = await client.threads.create({ metadata: { compat: "search" } });
  const second = await client.threads.create({ metadata: { compat: "search" } });
  await client.runs.wait(second.thread_id, GRAPH, { input: { messages: [{ type: "human", content: [{ type: "text", text: lisbon }] }] } });
  const asc = await client.threads.search({ metadata: { compat: "search" }, sortBy: "created_at", sortOrder: "asc" });
  assert.deepEqual(asc.map((t) => t.thread_id), [first.thread_id, second.thread_id]);
  const byIds = await client.threads.search({ ids: [first.thread_id] });
  assert.deepEqual(byIds.map((t) => t.thread_id), [first.thread_id]);
  const byValues = await client.threads.search({ values: { tripDetails: { location: "Lisbon" } } });
  assert.deepEqual(byValues.map((t) => t.thread_id), [second.thread_id]);
  const selected = await client.threads.search({ ids: [second.thread_id], select: ["thread_id", "status"], extract: { said: "values.messages[0].content", last: "values.messages[-1].type" } });
  assert.deepEqual(selected, [{ thread_id: second.thread_id, status: "idle", extracted: { said: lisbon, last: "ai" } }]);
  assert.equal(await client.threads.count({ metadata: { compat: "search" } }), 2);

  // The history of a run starts with its input pending (step -1, START
  // due); the input's content blocks are read as text.
  const history = await client.threads.getHistory(second.thread_id, { limit: 100 });
  const oldest = history.at(-1);
  assert.deepEqual([oldest.metadata.step, oldest.metadata.source, oldest.next], [-1, "input", ["__start__"]]);
  assert.deepEqual(oldest.values.messages, []);
  assert.equal(history.at(-2).values.messages[0].content, lisbon);
  assert.deepEqual(history.at(-2).tasks[0].path, ["__pregel_pull", "extraction"]);

  // add_messages: a message with a known id replaces it; an assistant's
  // message alone may be added; blocks are text.
  const state = await client.threads.getState(second.thread_id);
  const firstID = state.values.messages[0].id;
  await client.threads.updateState(second.thread_id, { values: { messages: [{ type: "human", id: firstID, content: [{ type: "text", text: "3 nights in Porto" }] }] } });
  await client.threads.updateState(second.thread_id, { values: { messages: [{ type: "ai", content: "One must imagine Sisyphus happy." }] }, asNode: "callTools" });
  const updated = (await client.threads.getState(second.thread_id)).values.messages;
  assert.equal(updated.length, state.values.messages.length + 1);
  assert.equal(updated[0].content, "3 nights in Porto");
  assert.equal(updated.at(-1).content, "One must imagine Sisyphus happy.");

  // Supersteps rebuild a history: the input pending, applied, then the
  // nodes' updates, each one checkpoint.
  const source = await client.threads.create();
  const streamed = await gather(client.runs.stream(source.thread_id, GRAPH, { input: { messages: [{ role: "human", content: "foo" }] }, streamMode: ["updates"] }));
  const sourceHistory = await client.threads.getHistory(source.thread_id);
  const clone = await client.threads.create({
    graphId: GRAPH,
    supersteps: [
      { updates: [{ asNode: "__input__", values: sourceHistory.at(-2).values }] },
      { updates: [{ asNode: "__start__", values: sourceHistory.at(-2).values }] },
      ...streamed.filter((c) => c.event === "updates").map(({ data }) => ({ updates: Object.entries(data).map(([asNode, values]) => ({ asNode, values })) })),
    ],
  });
  const cloneHistory = await client.threads.getHistory(clone.thread_id);
  assert.deepEqual(cloneHistory.map((s) => s.next), sourceHistory.map((s) => s.next));
  assert.deepEqual(cloneHistory.map((s) => s.values.messages.map((m) => m.content)), sourceHistory.map((s) => s.values.messages.map((m) => m.content)));
  // state/batch writes supersteps on a thread that exists.
  const batch = await raw(`/threads/${clone.thread_id}/state/batch`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ supersteps: [{ updates: [{ as_node: "callTools", values: { messages: [{ type: "ai", content: "noted" }] } }] }] }),
  });
  assert.equal(batch.status, 200);
  assert.equal((await client.threads.getState(clone.thread_id)).values.messages.at(-1).content, "noted");
}

// --- run bodies ---
{
  const thread = await client.threads.create();
  const runID = randomUUID();
  const values = await client.runs.wait(thread.thread_id, GRAPH, {
    input: { messages: [{ role: "user", content: "hi" }] },
    metadata: { from: "body" },
    config: { tags: ["t"], metadata: { from: "config", extra: 1 }, run_name: "compat", run_id: runID, recursion_limit: 25, configurable: { user_id: "123" }, max_concurrency: 2 },
  });
  assert.equal(values.messages.length, 2);
  const [run] = await client.runs.list(thread.thread_id);
  assert.deepEqual([run.metadata.from, run.metadata.extra], ["body", 1]);
  // The Python client's raise_error, sent as it sends it.
  const pythonish = await raw(`/threads/${thread.thread_id}/runs/wait`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: GRAPH, input: { messages: [{ role: "user", content: "thanks" }] }, raise_error: true }),
  });
  assert.equal(pythonish.status, 200);

  // A delayed run holds the thread until it starts; cancelled first, it
  // ends interrupted and the thread is idle again.
  const delayed = await client.runs.create(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "later" }] }, afterSeconds: 30 });
  assert.equal(delayed.status, "pending");
  await assert.rejects(client.threads.updateState(thread.thread_id, { values: { messages: [{ type: "ai", content: "x" }] }, asNode: "callTools" }), /HTTP 409/);
  assert.equal((await client.runs.list(thread.thread_id, { status: "pending" })).length, 1);
  await client.runs.cancel(thread.thread_id, delayed.run_id);
  assert.equal((await client.runs.get(thread.thread_id, delayed.run_id)).status, "interrupted");
  assert.equal((await client.runs.list(thread.thread_id, { status: "interrupted" })).length, 1);
  assert.equal((await client.threads.get(thread.thread_id)).status, "idle");
  const soon = await client.runs.create(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "now" }] }, afterSeconds: 1 });
  assert.equal((await client.runs.join(thread.thread_id, soon.run_id)).messages.at(-2).content, "now");

  // A run that cannot start is refused when it is created.
  const empty = await client.threads.create();
  await assert.rejects(client.runs.create(empty.thread_id, GRAPH, { command: { goto: "callTools" } }), (e) => e.status === 400);
  await assert.rejects(client.runs.create(empty.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "hi" }] }, checkpointId: randomUUID() }), (e) => e.status === 404);
  assert.equal((await client.runs.list(empty.thread_id)).length, 0);

  // LangGraph's error names.
  await assert.rejects(client.runs.wait(empty.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "foo" }] }, config: { recursion_limit: 1 } }), /^Error: GraphRecursionError: Recursion limit of 1 reached/);
  assert.equal((await client.threads.get(empty.thread_id)).status, "error");
}

// --- stream modes, and what ends a stream ---
{
  const thread = await client.threads.create();
  const chunks = await gather(client.runs.stream(thread.thread_id, GRAPH, {
    input: { messages: [{ role: "user", content: lisbon }] },
    streamMode: ["messages", "tasks", "checkpoints", "events", "debug", "custom"],
  }));
  const events = new Set(chunks.map((c) => c.event));
  for (const e of ["metadata", "messages/metadata", "messages/partial", "messages/complete", "tasks", "checkpoints", "events", "debug", "custom"]) assert.ok(events.has(e), `no ${e} in ${[...events]}`);
  assert.ok(!events.has("end"), "an end frame after the last event");
  assert.equal(chunks[0].data.attempt, 1);

  const partials = chunks.filter((c) => c.event === "messages/partial").map((c) => c.data[0]);
  const reply = chunks.filter((c) => c.event === "messages/complete").map((c) => c.data[0]).find((m) => m.type === "ai");
  assert.ok(partials.every((p) => p.id === reply.id && reply.content.startsWith(p.content)), "partials are the reply's text so far");
  assert.equal(partials.at(-1).content, reply.content);
  const completes = chunks.filter((c) => c.event === "messages/complete").map((c) => c.data[0]);
  assert.equal(completes[0].content, lisbon);

  const tasks = chunks.filter((c) => c.event === "tasks").map((c) => c.data);
  const start = tasks.find((t) => t.name === "extraction" && t.input);
  assert.deepEqual(start.triggers, ["branch:to:extraction"]);
  assert.ok(tasks.some((t) => t.id === start.id && t.result && typeof t.result === "object" && !Array.isArray(t.result) && "intent" in t.result), "a task result is keyed by channel");

  const history = (await client.threads.getHistory(thread.thread_id, { limit: 100 })).reverse();
  const checkpoints = chunks.filter((c) => c.event === "checkpoints").map((c) => c.data);
  const debugCheckpoints = chunks.filter((c) => c.event === "debug" && c.data.type === "checkpoint").map((c) => c.data.payload);
  const named = (list) => list.map((s) => ({ step: s.metadata.step, checkpoint: s.checkpoint, parent_checkpoint: s.parent_checkpoint }));
  assert.deepEqual(named(checkpoints), named(history));
  assert.deepEqual(named(debugCheckpoints), named(history));
  assert.equal(debugCheckpoints[0].parent_checkpoint, null);

  const modelEvents = chunks.filter((c) => c.event === "events").map((c) => c.data.event);
  for (const e of ["on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"]) assert.ok(modelEvents.includes(e), `no ${e}`);
  assert.ok(modelEvents.indexOf("on_chat_model_start") < modelEvents.indexOf("on_chat_model_end"));

  const ui = chunks.filter((c) => c.event === "custom" && c.data.type === "ui").map((c) => c.data);
  assert.ok(ui.length >= 2 && ui.every((m) => m.id && m.name && m.props && m.metadata.message_id), "ui events in LangGraph's shape");
  const values = await client.threads.getState(thread.thread_id);
  assert.ok(values.values.ui.every((m) => m.type === "ui" && m.metadata.message_id), "state ui entries in LangGraph's shape");

  // A join from -1, as the SDK's joinStream sends by default once a run
  // streamed resumable, replays the whole stream; with no modes, the
  // run's own.
  const resumable = await client.threads.create();
  let created;
  const source = gather(client.runs.stream(resumable.thread_id, GRAPH, {
    input: { messages: [{ role: "user", content: lisbon }] }, streamMode: ["values", "custom"], streamResumable: true,
    onRunCreated: (meta) => { created = meta; },
  }));
  const streamed = await source;
  const joined = await gather(client.runs.joinStream(resumable.thread_id, created.run_id, { lastEventId: "-1" }));
  assert.deepEqual(joined, streamed);
  assert.equal(streamed.at(-1).event, "values");

  // A continued run's debug stream starts with the checkpoint it continues
  // from.
  const paused = await client.threads.create();
  await client.runs.wait(paused.thread_id, GRAPH, { input: { messages: [{ role: "user", content: lisbon }] }, interruptBefore: ["callTools"] });
  const head = (await client.threads.getState(paused.thread_id)).checkpoint;
  const continued = await gather(client.runs.stream(paused.thread_id, GRAPH, { streamMode: "debug", checkpoint: head }));
  assert.deepEqual(continued[1].data.payload.checkpoint, head);
}

// --- the booking confirmation as a human-in-the-loop interrupt ---
{
  const thread = await client.threads.create();
  const planned = await client.runs.wait(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: lisbon }] } });
  const place = planned.ui.find((u) => u.name === "accommodations-list").props.accommodations[0];
  const trip = planned.tripDetails;
  const chunks = await gather(client.runs.stream(thread.thread_id, GRAPH, {
    input: { bookingRequest: { id: place.id, startDate: trip.startDate, endDate: trip.endDate, guests: trip.numberOfGuests } },
    streamMode: ["values"],
  }));
  const pause = chunks.filter((c) => c.event === "values").at(-1).data.__interrupt__;
  assert.ok(pause, "no __interrupt__ in values");
  const request = pause[0].value;
  assert.equal(request.action_requests[0].name, "book-accommodation");
  assert.equal(request.action_requests[0].args.id, place.id);
  assert.deepEqual(request.review_configs[0], { action_name: "book-accommodation", allowed_decisions: ["approve", "reject"] });
  assert.equal(request.name, "booking-confirmation"); // the component, for tripgraph's own pages
  const state = await client.threads.getState(thread.thread_id);
  assert.deepEqual(state.tasks[0].interrupts[0].value.action_requests, request.action_requests);
  // Approved as Agent Chat UI answers: an empty input beside the command.
  const booked = await client.runs.wait(thread.thread_id, GRAPH, { input: {}, command: { resume: { decisions: [{ type: "approve" }] } } });
  assert.equal(booked.ui.find((u) => u.id === request.id).props.status, "booked");
  await assert.rejects(client.runs.wait(thread.thread_id, GRAPH, { command: { resume: { decisions: [{ type: "approve" }] } } }), (e) => e.status === 409);
}

// --- the generative UI, and bodies a proxy sends as text/plain ---
{
  const html = await client["~ui"].getComponent(GRAPH, "trip-details");
  assert.match(html, /<script src="[^"]*\/static\/langgraph-ui\.js" onload="__tripgraph_ui\.render\(&#34;trip-details&#34;, '\{\{shadowRootId\}\}'\)"><\/script>/);
  const rendered = await client["~ui"].fetch(`/ui/${GRAPH}/render`, { method: "POST", json: { name: "trip-details", props: { tripDetails: { location: "Lisbon", country: "Portugal", startDate: "2027-05-01", endDate: "2027-05-05", numberOfGuests: 3 }, nights: 4 } } });
  assert.match(rendered.html, /Lisbon/);
  const proxied = await raw("/threads", { method: "POST", headers: { "content-type": "text/plain;charset=UTF-8" }, body: JSON.stringify({ metadata: { via: "proxy" } }) });
  assert.equal(proxied.status, 200);
}

// --- the protocol as LangGraph's server answers it ---
{
  // A run's metadata is in its checkpoints: history filters by it.
  const thread = await client.threads.create();
  await client.runs.wait(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "hi" }] } });
  await client.runs.wait(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: lisbon }] }, metadata: { trip: "lisbon" } });
  const all = await client.threads.getHistory(thread.thread_id, { limit: 100 });
  const filtered = await client.threads.getHistory(thread.thread_id, { limit: 100, metadata: { trip: "lisbon" } });
  assert.ok(filtered.length > 0 && filtered.length < all.length, `${filtered.length} of ${all.length} checkpoints carry the run's metadata`);
  assert.ok(filtered.every((s) => s.metadata.trip === "lisbon"));

  // Messages and values together: the last frame is the reply, complete.
  const mixed = await gather(client.runs.stream(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "3 nights in Porto in June" }] }, streamMode: ["messages", "values"] }));
  assert.equal(mixed.at(-1).event, "messages/complete");
  assert.equal(mixed.at(-1).data[0].type, "ai");

  // Rollback deletes the run it replaces.
  const first = await client.runs.create(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "never mind" }] }, afterSeconds: 60 });
  const second = await client.runs.create(thread.thread_id, GRAPH, { input: { messages: [{ role: "user", content: "hello" }] }, multitaskStrategy: "rollback" });
  await client.runs.join(thread.thread_id, second.run_id);
  await assert.rejects(client.runs.get(thread.thread_id, first.run_id), (e) => e.status === 404);
  await assert.rejects(client.runs.join(thread.thread_id, first.run_id), (e) => e.status === 404);
  const after = await client.threads.getState(thread.thread_id);
  assert.ok(!JSON.stringify(after.values).includes("never mind"));
}

console.log("ok");
