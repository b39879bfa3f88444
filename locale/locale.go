// Package locale names the languages tripgraph speaks, in one place: the
// planner's replies and prompts, the offline model's readers, the pages
// and their labels are each written in every one of All. Adding a
// language starts here.
package locale

import (
	"strings"

	"golang.org/x/text/language"
)

// The languages, by the codes the state and the pages carry.
const (
	English    = "en"
	Portuguese = "pt" // Brazilian Portuguese
)

// Default is the language when nothing says which.
const Default = English

// All are the languages, Default first.
var All = []string{English, Portuguese}

// tags are All as language tags, in the same order.
var tags = []language.Tag{language.English, language.BrazilianPortuguese}

// Known reports whether code is one of All.
func Known(code string) bool {
	for _, l := range All {
		if l == code {
			return true
		}
	}
	return false
}

// Of normalises a language tag ("pt-BR", "pt", "en-GB") to one of All by
// its base language; Default when none matches.
func Of(tag string) string {
	base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	if Known(base) {
		return base
	}
	return Default
}

var matcher = language.NewMatcher(tags)

// FromAcceptLanguage picks a language for a browser's Accept-Language
// header: the best match by the header's weights, Default when nothing
// matches or the header cannot be read.
func FromAcceptLanguage(header string) string {
	accepted, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(accepted) == 0 {
		return Default
	}
	_, i, confidence := matcher.Match(accepted...)
	if confidence == language.No {
		return Default
	}
	return All[i]
}

// HTML is the lang attribute of a page in a language: the Portuguese of
// the interface and of the replies is Brazilian, so "pt-BR".
func HTML(code string) string {
	if code == Portuguese {
		return "pt-BR"
	}
	return code
}
