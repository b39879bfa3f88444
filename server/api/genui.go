package api

// LangGraph's generative UI: a front end built on LangGraph's SDK asks
// POST /ui/{assistant} for the code of each component a run's state names
// (LoadExternalComponent). tripgraph answers with a small script (the
// ui package's langgraph-ui.js) that asks for each component's HTML,
// rendered by the same templates as its own pages, so that no React copy
// of the components is needed, and sends what the traveller does in the
// cards (Book, Confirm or Cancel, the trip's edit) through the page's
// stream, as runs the API already takes.

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/ui"
)

// components are the names the generative UI serves.
var components = []string{card.TripDetails, card.Accommodations, card.Restaurants,
	card.Albums, card.Photos, card.TripStats, card.BookingConfirmation}

// uiComponent answers POST /ui/{assistant}: the HTML the SDK puts in the
// component's shadow root, which loads the stylesheet and the script,
// then shows the component there. {{shadowRootId}} is the SDK's, which it
// replaces with the root's id.
func (s *API) uiComponent(c echo.Context) error {
	var in wire.UIComponentRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if _, err := assistantOf(httpx.Ctx(c), tenantOf(c), c.Param("assistant_id")); err != nil {
		return err
	}
	if !slices.Contains(components, in.Name) {
		return errcode.New(errcode.NotFound, "no UI component %q", in.Name)
	}
	name, _ := json.Marshal(in.Name)
	base := strings.TrimSuffix(s.publicURL, "/")
	return c.HTML(http.StatusOK, fmt.Sprintf(`<link rel="stylesheet" href="%s/static/%s">`+
		`<script src="%s/static/%s" onload="__tripgraph_ui.render(%s, '{{shadowRootId}}')"></script>`,
		html.EscapeString(base), ui.StylesheetPath, html.EscapeString(base), ui.GenerativeUIPath, html.EscapeString(string(name))))
}

// renderUIComponent answers the script: a component's HTML, rendered
// from its props in the language asked for (the page's), with the forms
// of tripgraph's own pages (Book, a booking's Confirm and Cancel, the
// trip's edit) made for the script, which sends them through the page's
// LangGraph stream (ui.Actions.Stream) rather than posting them.
func (s *API) renderUIComponent(c echo.Context) error {
	var in wire.UIRenderRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if _, err := assistantOf(httpx.Ctx(c), tenantOf(c), c.Param("assistant_id")); err != nil {
		return err
	}
	if !slices.Contains(components, in.Name) {
		return errcode.New(errcode.NotFound, "no UI component %q", in.Name)
	}
	var b strings.Builder
	ctx := ui.WithLanguage(httpx.Ctx(c), locale.FromAcceptLanguage(in.Lang))
	ctx = ui.WithActions(ctx, ui.Actions{Stream: true, Today: time.Now().UTC().Truncate(24 * time.Hour)})
	if err := ui.Component(nodes.UIComponent{ID: in.Name, Name: in.Name, Props: in.Props}).Render(ctx, &b); err != nil {
		return fmt.Errorf("rendering UI component %s: %w", in.Name, err)
	}
	return c.JSON(http.StatusOK, wire.UIRendered{HTML: b.String()})
}
