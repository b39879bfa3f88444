package ui

import (
	"embed"
	"io/fs"
)

// static holds the hand-written stylesheet and, once `make assets` has
// copied them in from the npm packages named in package.json, the browser
// scripts under static/vendor. The scripts are never committed; a binary
// built without them still serves readable pages, without live updates.
//
//go:embed static
var static embed.FS

// Paths of the assets, relative to Assets().
const (
	StylesheetPath = "app.css"
	IconPath       = "icon.svg" // the site's icon: a route between two places
	HTMXPath       = "vendor/htmx.min.js"
	SSEPath        = "vendor/sse.min.js"
	// LiveScriptPath keeps the message box in step with the live stream.
	LiveScriptPath = "live.js"
	// GenerativeUIPath shows the components in front ends built on
	// LangGraph's SDK (its generative UI), as the API's /ui routes answer.
	GenerativeUIPath = "langgraph-ui.js"
)

// Assets is the file system of the static assets, to be served under
// the prefix given to the pages.
func Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // "static" is a valid path: fs.Sub cannot fail on it
	}
	return sub
}

// ScriptsEmbedded reports whether htmx and its SSE extension were
// embedded when the binary was built.
func ScriptsEmbedded() bool {
	for _, p := range []string{HTMXPath, SSEPath} {
		if _, err := fs.Stat(Assets(), p); err != nil {
			return false
		}
	}
	return true
}
