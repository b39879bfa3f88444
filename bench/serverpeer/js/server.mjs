// Starts LangGraph.js's API server (@langchain/langgraph-api) as
// `langgraphjs dev` does, without its file watcher: the same startServer
// with the same options, run under the API's module preload.
//
//   node --import <api>/dist/preload.mjs server.mjs '<options as JSON>'
//
// The options (the last argument, which the preload also reads) are
// startServer's: port, host, nWorkers (langgraphjs dev's default is 10),
// cwd (where it keeps its .langgraph_api files) and graphs.

import { startServer, StartServerSchema } from "@langchain/langgraph-api/server";

const options = StartServerSchema.parse(JSON.parse(process.argv.at(-1)));
process.env.PORT = String(options.port);
const { host } = await startServer(options);
console.log(`serverpeer: LangGraph.js API server listening on ${host}`);

// Stop at once when interrupted, without writing the in-memory state to
// files as `langgraphjs dev` does on its way out: the next round starts
// without them anyway.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
