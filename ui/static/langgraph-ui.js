// tripgraph's components for LangGraph's generative UI. A front end built
// on LangGraph's SDK (LoadExternalComponent, as Agent Chat UI uses) loads
// this script into a shadow root for each component of a run's state; it
// hands the SDK a React component that asks the server for the
// component's HTML, rendered by the same templates as tripgraph's own
// pages, through the page's own LangGraph client (its address and API key,
// or its proxy). React and the client are the page's: this file brings no
// copy of either, and no copy of the components.
(() => {
  const need = window[Symbol.for("LGUI_REQUIRE")];
  const store = window[Symbol.for("LGUI_EXT_STORE")];
  if (!need || !store) return; // not loaded by LangGraph's SDK

  const React = need("react");
  const { useStreamContext } = need("@langchain/langgraph-sdk/react-ui");

  // component is the React component that shows the named component.
  function component(name) {
    return function TripgraphComponent(props) {
      const stream = useStreamContext();
      const [html, setHtml] = React.useState("");
      const key = JSON.stringify(props);
      React.useEffect(() => {
        let current = true;
        const path = "/ui/" + encodeURIComponent(stream.assistantId) + "/render";
        stream.client["~ui"]
          .fetch(path, { method: "POST", json: { name, props, lang: navigator.language } })
          .then((answer) => current && setHtml(answer.html))
          .catch((err) => console.error("tripgraph: rendering " + name, err));
        return () => { current = false; };
      }, [name, key]);
      return React.createElement("div", {
        className: "tripgraph-component",
        "data-component": name,
        dangerouslySetInnerHTML: { __html: html },
      });
    };
  }

  window.__tripgraph_ui = {
    // render shows the named component in the shadow root the SDK made.
    render(name, shadowRootId) {
      const host = document.getElementById(shadowRootId);
      if (!host || !host.shadowRoot) return;
      const target = document.createElement("div");
      host.shadowRoot.appendChild(target);
      store.respond(shadowRootId, component(name), target);
    },
  };
})();
