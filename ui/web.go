package ui

import "context"

// LanguageSwitch is the form that changes the interface language: it
// posts lang (one of locale.All), next (the page to come back to) and the CSRF
// token to Action.
type LanguageSwitch struct {
	Action    string
	Next      string
	CSRFToken string
}

// LoginPage is the sign-in page: an API key, or a name to sign up with.
type LoginPage struct {
	AssetsURL string
	LoginURL  string // receives api_key and next
	SignupURL string // receives name and next
	Next      string // where to go once signed in
	// Problem is the catalog key of what went wrong with the last
	// attempt ("login.bad", "signup.taken", "signup.name"), or "".
	Problem  string
	Language LanguageSwitch
}

// KeyPage shows a new account's API key, once.
type KeyPage struct {
	AssetsURL   string
	Name        string
	Key         string
	ContinueURL string
}

// ErrorPage is a page that could not be shown: the error code says what
// happened, and the page says it and what to do next in the page's
// language (never the error's own English words).
type ErrorPage struct {
	AssetsURL string
	Code      string
	// Fields are the refused fields of a form, if any: the page names
	// those a form has, as the form labels them, and says what was wrong.
	Fields  []Field
	HomeURL string
}

type mediaKey struct{}

// WithMediaLinks returns a context in which every image and photo link is
// passed through link before it is rendered: a page served to a signed-in
// browser makes them links its session opens, where the links the tools
// gave (signed, and expiring) may have expired by the time a thread is
// shown again.
func WithMediaLinks(ctx context.Context, link func(string) string) context.Context {
	return context.WithValue(ctx, mediaKey{}, link)
}

// mediaLink is u as the context links media.
func mediaLink(ctx context.Context, u string) string {
	if link, ok := ctx.Value(mediaKey{}).(func(string) string); ok && u != "" {
		return link(u)
	}
	return u
}

// branches is how a timeline's steps relate to the head's line: which
// steps the head descends from, and how many children each step has.
type branches struct {
	line     map[string]bool
	children map[string]int
}

func (t Timeline) branches() branches {
	b := branches{line: map[string]bool{}, children: map[string]int{}}
	parent := make(map[string]string, len(t.Steps))
	for _, s := range t.Steps {
		parent[s.CheckpointID] = s.ParentID
		if s.ParentID != "" {
			b.children[s.ParentID]++
		}
	}
	for id := t.Head; id != "" && !b.line[id]; id = parent[id] {
		b.line[id] = true
	}
	return b
}

// branchNotes says where a step stands among the branches: on another
// branch than the newest state's, the end of such a branch, or a step
// the thread branched from.
func branchNotes(ctx context.Context, t Timeline, b branches, id string) []string {
	var out []string
	if t.Head != "" && !b.line[id] {
		if b.children[id] == 0 {
			out = append(out, text(ctx, "branch.end"))
		} else {
			out = append(out, text(ctx, "branch.other"))
		}
	}
	if n := b.children[id]; n > 1 {
		out = append(out, plural(ctx, "branch.point", n))
	}
	return out
}
