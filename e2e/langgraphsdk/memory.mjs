// Drives the long-term store and the crons of a running tripgraph serve with
// the official LangGraph JavaScript client: TRIPGRAPH_URL, TRIPGRAPH_API_KEY
// and TRIPGRAPH_OTHER_KEY (another user) say where and as whom. Prints "ok"
// when every answer holds; exits non-zero at the first that does not.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";

const url = process.env.TRIPGRAPH_URL;
const client = new Client({ apiUrl: url, apiKey: process.env.TRIPGRAPH_API_KEY });
const other = new Client({ apiUrl: url, apiKey: process.env.TRIPGRAPH_OTHER_KEY });

// store: put, get, search (prefix, filter, query), namespaces, TTL, delete.
const ns = ["memory", "sdk", randomUUID()];
await client.store.putItem(ns, "home", { city: "São Paulo", currency: "BRL" });
await client.store.putItem(ns, "diet", { note: "one of us is vegetarian" }, { ttl: 60 });
await client.store.putItem([...ns, "trips"], "lisbon", { city: "Lisbon", nights: 4 }, { index: ["city"] });
const home = await client.store.getItem(ns, "home");
assert.deepEqual(home.value, { city: "São Paulo", currency: "BRL" });
assert.deepEqual(home.namespace, ns);
assert.ok(!Number.isNaN(new Date(home.createdAt).getTime()));
assert.equal(await client.store.getItem(ns, "nothing"), null);
assert.equal((await client.store.getItem(ns, "diet", { refreshTtl: true })).value.note, "one of us is vegetarian");

const all = await client.store.searchItems(ns);
assert.deepEqual(all.items.map((i) => i.key).sort(), ["diet", "home", "lisbon"]);
const byFilter = await client.store.searchItems(ns, { filter: { currency: "BRL" } });
assert.deepEqual(byFilter.items.map((i) => i.key), ["home"]);
const byRange = await client.store.searchItems(ns, { filter: { nights: { $gte: 3 } } });
assert.deepEqual(byRange.items.map((i) => i.key), ["lisbon"]);
const byQuery = await client.store.searchItems(ns, { query: "vegetarian Paulo" });
assert.deepEqual(byQuery.items.map((i) => i.key).sort(), ["diet", "home"]);
assert.ok(byQuery.items.every((i) => typeof i.score === "number"));
const paged = await client.store.searchItems(ns, { limit: 1, offset: 1 });
assert.equal(paged.items.length, 1);

const spaces = await client.store.listNamespaces({ prefix: ns });
assert.deepEqual(spaces.namespaces, [ns, [...ns, "trips"]]);
const shallow = await client.store.listNamespaces({ prefix: ns, maxDepth: 3 });
assert.deepEqual(shallow.namespaces, [ns]);
const bySuffix = await client.store.listNamespaces({ suffix: ["trips"] });
assert.ok(bySuffix.namespaces.some((n) => n.at(-1) === "trips" && n[2] === ns[2]));

// Another user sees none of it, and cannot overwrite it.
assert.equal(await other.store.getItem(ns, "home"), null);
assert.equal((await other.store.searchItems(ns)).items.length, 0);
assert.equal((await other.store.listNamespaces({ prefix: ns })).namespaces.length, 0);
await other.store.putItem(ns, "home", { city: "Recife" });
await other.store.deleteItem(ns, "home");
assert.equal((await client.store.getItem(ns, "home")).value.city, "São Paulo");

await client.store.deleteItem(ns, "home");
assert.equal(await client.store.getItem(ns, "home"), null);
await assert.rejects(client.store.putItem(["bad.label"], "k", {}), /periods/);

// crons: on a thread and stateless, search, count, update, delete.
const [assistant] = await client.assistants.search({ graphId: "trip-planner" });
const thread = await client.threads.create();
const input = { messages: [{ role: "user", content: "2 nights in Lisbon in May, 2 of us" }] };
const onThread = await client.crons.createForThread(thread.thread_id, assistant.assistant_id, {
  schedule: "0 9 * * *",
  input,
  metadata: { purpose: "sdk" },
  multitaskStrategy: "enqueue",
});
assert.match(onThread.cron_id, /^[0-9a-f-]{36}$/);
assert.equal(onThread.thread_id, thread.thread_id);
assert.equal(onThread.schedule, "0 9 * * *");
assert.equal(new Date(onThread.next_run_date).getUTCHours(), 9);
assert.deepEqual(onThread.payload.input, input);
const stateless = await client.crons.create(assistant.assistant_id, {
  schedule: "@hourly",
  input,
  onRunCompleted: "keep",
  enabled: false,
});
assert.equal(stateless.thread_id, null);
assert.equal(stateless.enabled, false);

const mine = await client.crons.search({ assistantId: assistant.assistant_id, sortBy: "created_at", sortOrder: "asc" });
assert.deepEqual(mine.map((c) => c.cron_id), [onThread.cron_id, stateless.cron_id]);
assert.deepEqual((await client.crons.search({ threadId: thread.thread_id })).map((c) => c.cron_id), [onThread.cron_id]);
assert.deepEqual((await client.crons.search({ enabled: false })).map((c) => c.cron_id), [stateless.cron_id]);
assert.equal(await client.crons.count({ assistantId: assistant.assistant_id }), 2);

const end = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
const updated = await client.crons.update(onThread.cron_id, { schedule: "30 18 * * 5", endTime: end, enabled: false });
assert.equal(updated.schedule, "30 18 * * 5");
assert.equal(updated.enabled, false);
assert.equal(new Date(updated.end_time).getTime(), new Date(end).getTime());
assert.equal(new Date(updated.next_run_date).getUTCDay(), 5);

// Another user can neither see, change nor delete them.
assert.equal((await other.crons.search()).length, 0);
await assert.rejects(other.crons.update(onThread.cron_id, { enabled: true }), (err) => err.status === 404);
await assert.rejects(other.crons.delete(onThread.cron_id), (err) => err.status === 404);
await assert.rejects(other.crons.createForThread(thread.thread_id, assistant.assistant_id, { schedule: "@daily", input }), (err) => err.status === 404);

await client.crons.delete(onThread.cron_id);
await client.crons.delete(stateless.cron_id);
assert.equal((await client.crons.search()).length, 0);
await assert.rejects(client.crons.create(assistant.assistant_id, { schedule: "every day", input }), (err) => err.status === 400);

console.log("ok");
