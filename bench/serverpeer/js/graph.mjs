// The graph LangGraph.js's API server hosts: bench/peer's trip-shaped graph,
// built with this directory's LangGraph.js, on the workload with its dates
// moved after today (futureWorkload), as the load sends it.
//
// With SERVERPEER_POSTGRES set to a database URL, the graph's checkpoints go
// to PostgresSaver (@langchain/langgraph-checkpoint-postgres) instead of
// the server's in-memory saver. The API server has no setting for that: it
// assigns its own saver to every graph it runs (getGraph in
// @langchain/langgraph-api's graph/load), so the saver is pinned on the
// compiled graph with a property that ignores that assignment. Threads,
// runs and the run queue stay in the server's in-memory store either way.

import * as lg from "@langchain/langgraph";
import { futureWorkload, tripGraph } from "../../peer/js/trip.mjs";

async function pinnedPostgresSaver(compiled, url) {
  const { PostgresSaver } = await import("@langchain/langgraph-checkpoint-postgres");
  const saver = PostgresSaver.fromConnString(url);
  await saver.setup();
  Object.defineProperty(compiled, "checkpointer", { get: () => saver, set: () => {}, configurable: true });
  return compiled;
}

const compiled = tripGraph(lg, undefined, false, futureWorkload());
export const graph = process.env.SERVERPEER_POSTGRES
  ? await pinnedPostgresSaver(compiled, process.env.SERVERPEER_POSTGRES)
  : compiled;
