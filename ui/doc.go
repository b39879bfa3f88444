// Package ui renders the trip planner for the browser with templ: one
// component per UI name of the planner's state (see nodes), the
// conversation that lists each message with its components, the page
// layout, and the replay timeline. It knows the view types only, never the
// server or the store.
//
// Labels come from a small catalog in English and Portuguese; the language
// travels in the context (WithLanguage). Every component has a stable
// element id (DOMID) so that a streamed fragment replaces it in place.
//
// The *_templ.go files are generated from the .templ files and committed,
// so that building needs no generator; `make generate` regenerates them and
// a test fails when they are stale.
package ui

//go:generate go tool templ generate -path .
