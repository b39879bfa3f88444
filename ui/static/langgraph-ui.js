// tripgraph's components for LangGraph's generative UI. A front end built
// on LangGraph's SDK (LoadExternalComponent, as Agent Chat UI uses) loads
// this script into a shadow root for each component of a run's state; it
// hands the SDK a React component that asks the server for the
// component's HTML, rendered by the same templates as tripgraph's own
// pages, through the page's own LangGraph client (its address and API key,
// or its proxy). React and the client are the page's: this file brings no
// copy of either, and no copy of the components.
//
// The cards act as they do in tripgraph's own pages, through the page's
// stream (useStreamContext().submit, as LangGraph's generative UI
// components do) rather than posted forms: each form the server renders
// for this script names what it does in data-action (ui.Actions.Stream).
// - book, a stay's Book button: a run whose input is a bookingRequest;
//   the run pauses on the booking's confirmation, a human-in-the-loop
//   interrupt the front end shows as an action to approve or reject.
// - answer, a pending booking's Confirm or Cancel: the interrupt resumed
//   with the planner's own answer, {confirmed, key}.
// - trip, the trip-details edit: a command that updates the trip (its
//   card replaced in place, the traveller's message saying the change)
//   and runs the tools again, as tripgraph's own page does.
(() => {
  const need = window[Symbol.for("LGUI_REQUIRE")];
  const store = window[Symbol.for("LGUI_EXT_STORE")];
  if (!need || !store) return; // not loaded by LangGraph's SDK

  const React = need("react");
  const { useStreamContext } = need("@langchain/langgraph-sdk/react-ui");

  // tripUpdate is the state update of a trip-details edit: the trip as
  // stated (nothing assumed), its newest card replaced where it is shown
  // (on the reply, as LangGraph's clients see it, which it then stays on),
  // and the traveller's message saying the change (data-said and
  // data-guests, in the page's language), which the tools are chosen for.
  function tripUpdate(stream, form, f) {
    const trip = {
      location: String(f.location || "").trim(), startDate: f.startDate, endDate: f.endDate,
      numberOfGuests: Number(f.numberOfGuests),
    };
    const nights = Math.round((Date.parse(trip.endDate) - Date.parse(trip.startDate)) / 86400000);
    const [one, other = one] = (form.dataset.guests || "{n}").split("|");
    const guests = (trip.numberOfGuests === 1 ? one : other).replace("{n}", String(trip.numberOfGuests));
    let dates = trip.startDate + " – " + trip.endDate;
    try {
      const fmt = new Intl.DateTimeFormat(document.documentElement.lang || navigator.language,
        { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
      dates = fmt.formatRange(new Date(trip.startDate), new Date(trip.endDate));
    } catch (_) {
      // dates the browser cannot read are said as sent; the server checks them
    }
    const said = (form.dataset.said || "{location}, {dates}, {guests}")
      .replace("{location}", trip.location).replace("{dates}", dates).replace("{guests}", guests);
    const update = {
      messages: [{ id: crypto.randomUUID(), type: "human", content: said }],
      tripDetails: trip, intent: "trip", timestamp: Date.now(),
    };
    const card = (stream.values?.ui ?? []).filter((u) => u.name === "trip-details").pop();
    if (card) {
      update.ui = [{ type: "ui", id: card.id, name: "trip-details", props: { tripDetails: trip, nights },
        metadata: { message_id: card.metadata?.message_id ?? "" } }];
    }
    return update;
  }

  // send submits what a form asks for through the page's stream.
  function send(stream, form, submitter) {
    const f = Object.fromEntries(new FormData(form));
    switch (form.dataset.action) {
      case "book":
        return stream.submit({
          bookingRequest: { id: f.id, startDate: f.startDate, endDate: f.endDate, guests: Number(f.guests) },
        });
      case "answer":
        return stream.submit({}, {
          command: { resume: { confirmed: submitter?.value === "true", key: f.key } },
        });
      case "trip":
        return stream.submit({}, { command: { update: tripUpdate(stream, form, f), goto: "callTools" } });
    }
  }

  // withKey gives a pending booking's props back their key: React keeps a
  // prop named key for itself and never hands it to the component, and the
  // key is what its Confirm and Cancel answer with. It is the key of the
  // interrupt pending on the same booking.
  function withKey(stream, name, props) {
    if (name !== "booking-confirmation" || props.key !== undefined) return props;
    const pending = [].concat(stream.interrupt ?? [], stream.interrupts ?? [])
      .map((i) => i && i.value)
      .find((v) => v && v.name === name && v.props && v.props.toolCallId === props.toolCallId);
    return pending ? { ...props, key: pending.props.key } : props;
  }

  // component is the React component that shows the named component.
  function component(name) {
    return function TripgraphComponent(given) {
      const stream = useStreamContext();
      const props = withKey(stream, name, given);
      const [html, setHtml] = React.useState("");
      const root = React.useRef(null);
      const current = React.useRef(stream);
      current.current = stream;
      const key = JSON.stringify(props);
      React.useEffect(() => {
        let live = true;
        const path = "/ui/" + encodeURIComponent(stream.assistantId) + "/render";
        stream.client["~ui"]
          .fetch(path, { method: "POST", json: { name, props, lang: navigator.language } })
          .then((answer) => live && setHtml(answer.html))
          .catch((err) => console.error("tripgraph: rendering " + name, err));
        return () => { live = false; };
      }, [name, key]);
      // The forms are sent through the stream: a submit event does not
      // leave the shadow root, so it is caught here, on the component.
      React.useEffect(() => {
        const el = root.current;
        if (!el) return undefined;
        const onSubmit = (event) => {
          const form = event.target;
          if (!(form instanceof HTMLFormElement) || !form.dataset.action) return;
          event.preventDefault();
          Promise.resolve()
            .then(() => send(current.current, form, event.submitter))
            .catch((err) => console.error("tripgraph: " + form.dataset.action, err));
        };
        el.addEventListener("submit", onSubmit);
        return () => el.removeEventListener("submit", onSubmit);
      }, []);
      return React.createElement("div", {
        ref: root,
        className: "tripgraph-component",
        "data-component": name,
        dangerouslySetInnerHTML: { __html: html },
      });
    };
  }

  window.__tripgraph_ui = {
    // render shows the named component in the shadow root the SDK made,
    // once: a page that adds the component's HTML twice (React's strict
    // mode runs the SDK's effect twice) loads this script twice.
    render(name, shadowRootId) {
      const host = document.getElementById(shadowRootId);
      if (!host || !host.shadowRoot) return;
      let target = host.shadowRoot.querySelector(":scope > .tripgraph-root");
      if (!target) {
        target = document.createElement("div");
        target.className = "tripgraph-root";
        host.shadowRoot.appendChild(target);
      }
      store.respond(shadowRootId, component(name), target);
    },
  };
})();
