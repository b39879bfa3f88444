package chatinput

import (
	"regexp"
	"slices"
	"strings"
)

// injectionPatterns are the seed's patterns, case-insensitive, with their
// Portuguese equivalents. The seed's "act as" rule uses a lookahead, which
// RE2 lacks; actAs below does it in two steps.
var injectionPatterns = compile(
	// English, from the seed.
	`ignore\s+(previous|prior|all|above)\s+instructions?`,
	`forget\s+(everything|all|previous|prior)`,
	`you\s+are\s+now\s`,
	`new\s+instructions?\s*:`,
	`system\s*:\s*`,
	`\[system\]`,
	`pretend\s+(to\s+be|you\s+are)`,
	`roleplay\s+as`,
	`your\s+new\s+role`,
	`disregard\s`,
	`override\s`,
	`<\|im_start\|>`,
	`<\|im_end\|>`,
	`\[INST\]`,
	`\[/INST\]`,
	// Portuguese.
	`ignor(e|a|ar)\s+(as\s+|todas\s+as\s+)?(instru[çc](ões|oes|ão|ao)|regras)(\s+(anteriores|acima|pr[ée]vias))?`,
	`esque[çc](a|er)\s+(tudo|todas?|as\s+instru[çc]|o\s+que)`,
	`(voc[êe]|tu)\s+agora\s+([ée]|ser[áa])\s`,
	`novas?\s+instru[çc](ões|oes|ão|ao)\s*:`,
	`sistema\s*:\s*`,
	`finja\s+(ser|que)`,
	`fa[çc]a\s+de\s+conta\s+que`,
	`(interprete|fa[çc]a|assuma)\s+o\s+papel\s+de`,
	`seu\s+novo\s+papel`,
	`desconsider(e|ar)\s`,
	`sobrescrev(a|er)\s`,
)

// actAs finds "act as (a) X" / "aja como (um) X"; X may be travel, photo or
// album help, which is what the assistant is.
var actAs = regexp.MustCompile(`(?i)\b(act\s+as|aja\s+como|atue\s+como)\s+(an?\s+|the\s+|my\s+|our\s+|um\s+|uma\s+|meu\s+|minha\s+|o\s+|a\s+)?(\p{L}+)`)

var allowedRoles = []string{"travel", "photo", "album", "viagem", "viagens", "agente", "guia", "fot", "álbum", "album"}

func compile(patterns ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = regexp.MustCompile(`(?i)` + p)
	}
	return out
}

// DetectInjection reports whether text contains a prompt-injection pattern,
// and the phrase that matched.
func DetectInjection(text string) (string, bool) {
	for _, re := range injectionPatterns {
		if m := re.FindString(text); m != "" {
			return strings.TrimSpace(m), true
		}
	}
	for _, m := range actAs.FindAllStringSubmatch(text, -1) {
		word := strings.ToLower(m[3])
		if !slices.ContainsFunc(allowedRoles, func(a string) bool { return strings.HasPrefix(word, a) }) {
			return m[0], true
		}
	}
	return "", false
}
