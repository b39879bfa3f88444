// A small chat page on the LangGraph SDK's useStream hook, the client code
// Agent Chat UI runs: it streams a trip planner run, shows the messages,
// shows each UI component through LoadExternalComponent (which loads
// tripgraph's own components from /ui/{assistant}; their Book, Confirm and
// Cancel buttons submit through this page's stream), and shows the
// booking's human-in-the-loop interrupt as Agent Chat UI does, with an
// Approve button that answers it as Agent Chat UI does, and the pending
// booking's own card (the interrupt's component). The page is served from
// another origin than the API (?api=URL&key=API_KEY), so every call goes
// through CORS. Each element a test reads carries a data- attribute.
import React, { useState } from "react";
import { createRoot } from "react-dom/client";
import { useStream } from "@langchain/langgraph-sdk/react";
import { LoadExternalComponent, isUIMessage, uiMessageReducer } from "@langchain/langgraph-sdk/react-ui";

const params = new URLSearchParams(location.search);

function text(content) {
  if (typeof content === "string") return content;
  return (content ?? []).filter((b) => b.type === "text").map((b) => b.text).join("");
}

function App() {
  const [draft, setDraft] = useState("");
  const stream = useStream({
    apiUrl: params.get("api"),
    apiKey: params.get("key"),
    assistantId: "trip-planner",
    onCustomEvent: (event, { mutate }) => {
      if (isUIMessage(event)) mutate((prev) => ({ ...prev, ui: uiMessageReducer(prev.ui ?? [], event) }));
    },
    onThreadId: (id) => { document.body.dataset.thread = id; },
    onError: (err) => { document.body.dataset.error = String(err); },
  });
  const ui = stream.values?.ui ?? [];
  const request = stream.interrupt?.value;

  const send = (e) => {
    e.preventDefault();
    const message = { id: crypto.randomUUID(), type: "human", content: [{ type: "text", text: draft }] };
    stream.submit({ messages: [message] }, {
      streamMode: ["values"],
      optimisticValues: (prev) => ({ ...prev, messages: [...(prev.messages ?? []), message] }),
    });
    setDraft("");
  };
  const approve = () => stream.submit({}, { command: { resume: { decisions: [{ type: "approve" }] } } });

  return (
    <main data-loading={String(stream.isLoading)}>
      <ol>
        {stream.messages.map((m) => (
          <li key={m.id} data-message={m.type}>
            <p>{text(m.content)}</p>
            {ui.filter((u) => u.metadata?.message_id === m.id).map((u) => (
              <div key={u.id} data-ui={u.name}>
                <LoadExternalComponent stream={stream} message={u} fallback={<span>loading {u.name}</span>} />
              </div>
            ))}
          </li>
        ))}
      </ol>
      {request?.action_requests && (
        <section data-interrupt={request.action_requests[0].name}>
          <p>{request.action_requests[0].description}</p>
          {request.review_configs[0].allowed_decisions.includes("approve") && <button data-approve onClick={approve}>Approve</button>}
          {request.name && (
            <div data-ui={request.name} data-pending>
              <LoadExternalComponent stream={stream} message={{ type: "ui", id: request.id, name: request.name, props: request.props }} />
            </div>
          )}
        </section>
      )}
      <form onSubmit={send}>
        <input data-draft value={draft} onChange={(e) => setDraft(e.target.value)} aria-label="Message" />
        <button type="submit">Send</button>
      </form>
    </main>
  );
}

createRoot(document.getElementById("root")).render(<App />);
