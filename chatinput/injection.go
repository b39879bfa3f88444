package chatinput

import (
	"regexp"
	"strings"
	"unicode"
)

// The injection check looks for what an attempt to change the assistant's
// instructions needs to say, in English and Portuguese, rather than for
// single keywords: travellers write "ignore the cheap ones", "you are now
// my favourite assistant" or "esqueça o hotel" all the time. An attempt
//
//   - tells the assistant to drop its instructions: an override verb and,
//     a few words later, what it overrides (instructions, rules, prompt,
//     guidelines, filters, "everything you were told", "the above"), unless
//     those are someone else's ("the airline's rules", "as regras de
//     bagagem") and not the assistant's ("your", "previous", "anteriores");
//   - gives it a new identity: "you are now / from now on you are /
//     você agora é" followed by "a(n) X" that is not a travel role, a
//     name written with a capital, or words such as "unfiltered", "sem
//     regras"; or role-play ("pretend to be", "act as", "finja ser")
//     as anything but a travel role;
//   - asks for its prompt ("reveal your system prompt", "repeat the text
//     above", "mostre suas instruções");
//   - or uses chat-template tokens, a "system:" line, "new instructions:",
//     developer or DAN mode, "answer without restrictions".
//
// Text is matched case- and accent-insensitively.

// accents maps the letters folded away to their plain forms.
var accents = map[rune]byte{
	'á': 'a', 'à': 'a', 'â': 'a', 'ã': 'a', 'é': 'e', 'ê': 'e', 'í': 'i',
	'ó': 'o', 'ô': 'o', 'õ': 'o', 'ú': 'u', 'ü': 'u', 'ç': 'c', '’': '\'', '‘': '\'',
}

// folded lower-cases text and removes the Portuguese accents. at maps a
// byte offset of the result to the offset in text.
func folded(text string) (f string, at []int) {
	var b strings.Builder
	for i, r := range text {
		lr := unicode.ToLower(r)
		if c, ok := accents[lr]; ok {
			b.WriteByte(c)
			at = append(at, i)
			continue
		}
		n := b.Len()
		b.WriteRune(lr)
		for range b.Len() - n {
			at = append(at, i)
		}
	}
	return b.String(), append(at, len(text))
}

// gap is up to six words between two parts of a phrase.
const gap = `(?:\W+[\w']+){0,6}?\W+`

// detector holds the injection check's patterns, built for what may
// separate the words of a phrase.
//
// The patterns that scan a whole text are patterns, so that a text
// without the words they need is not scanned; the others read only near
// a match.
type detector struct {
	tokens     []pattern
	override   pattern
	owners     *regexp.Regexp
	elsewhere  *regexp.Regexp
	toldYou    pattern
	identity   pattern
	roleplay   pattern
	travelRole *regexp.Regexp
	unbound    *regexp.Regexp
	indefinite *regexp.Regexp
	capital    *regexp.Regexp
	nextWord   *regexp.Regexp
	extraction []pattern
}

var (
	// single reads one message: any characters but letters and digits
	// may separate the words of a phrase.
	single = newDetector(`\W`)
	// across reads the end of a conversation, its messages one per line,
	// for a phrase split across them. Spaces and line breaks may separate
	// its words, clause punctuation (, . ; ! ?) may not, unless the phrase
	// itself has it ("from now on, you are"): in "forget the hotel, we'll
	// rent a flat" followed by "the rules of the flat?", the comma ended
	// what "forget" was about.
	across = newDetector(`[^\w,.;!?]`)
)

// newDetector compiles the patterns with sep, a character class, for what
// may separate two words of a phrase (\W in the patterns below). The
// exceptions (elsewhere, travelRole) keep \W, so that a stricter sep only
// ever finds fewer phrases.
func newDetector(sep string) *detector {
	re := func(p string) *regexp.Regexp { return regexp.MustCompile(strings.ReplaceAll(p, `\W`, sep)) }
	scan := func(p string) pattern { return compilePattern(strings.ReplaceAll(p, `\W`, sep)) }
	d := &detector{}
	// tokens are chat-template markup, instruction headers and phrases
	// that mean nothing else.
	d.tokens = []pattern{
		scan(`<\|im_(start|end)\|>|\[/?inst\]|\[system\]|</?system>|<</?sys>>`),
		scan(`(?m)^\s*(#+\s*)?(system|sistema)\s*:`),
		scan(`\bnew\s+instructions?\s*:|\bnovas?\s+instruc(oes|ao)\s*:`),
		scan(`\b(developer|dan|god)\s+mode\b|\bmodo\s+(desenvolvedor|dev|deus)\b|\bjailbreak|\bdo\s+anything\s+now\b|\bno\s+content\s+polic`),
		scan(`\b(answer|respond|reply|responda|responde|responder)\b(?:\W+\w+){0,4}?\W+(without|sem)\W+(any\s+|nenhuma\s+|qualquer\s+)?(restrictions?|filters?|rules|limits|censorship|restricao|restricoes|filtros?|regras|limites|censura)\b`),
		scan(`\b(pretend|imagine|faca\s+de\s+conta|finja)\b(?:\W+\w+){0,4}?\W+(there\s+are\s+no|no|nao\s+ha|nao\s+existem|sem)\s+(rules|restrictions|regras|restricoes|limites|filtros)\b`),
		scan(`\b(disregard|ignore|forget|desconsidere|desconsidera|esqueca|esquece|ignora)\s+(tudo\s+)?(o\s+que\s+(foi\s+dito|te\s+(disseram|falaram|pediram))|what\s+you\s+were\s+(told|given))\b`),
		scan(`\b(your\s+new\s+role|seu\s+novo\s+papel|sua\s+nova\s+funcao)\s+(is|e|sera|will\s+be)\b`),
		scan(`\b(stop\s+being|pare\s+de\s+ser|deixe\s+de\s+ser)\b` + gap + `(assistant|assistente|helper)\b`),
	}
	overrideVerb := `\b(ignore|ignora|ignorar|ignorem|disregard|forget|esqueca|esquece|esquecer|desconsidere|desconsidera|desconsiderar|despreze|override|overwrite|bypass|sobrescreva|sobrescrever|contorne|contornar|burle|burlar|disable|desative|desativar|desligue|deactivate)\b`
	overrideTarget := `(instructions?|instrucoes|instrucao|rules|regras|guidelines|diretrizes|directives|prompt|policies|policy|politicas|restrictions|restricoes|filters?|filtros?|safety|programming|programacao|training|treinamento|the\s+above|acima)\b`
	d.override = scan(overrideVerb + gap + overrideTarget)
	// owners make the target the assistant's own.
	d.owners = re(`\b(your|you|previous|prior|earlier|above|initial|original|system|suas?|seus?|teus?|tuas?|anteriores|previas|iniciais|originais|voce|te)\b`)
	// elsewhere makes the target someone else's: "rules of the hotel".
	d.elsewhere = regexp.MustCompile(`^\W+(of|from|for|at|de|do|da|dos|das|no|na)\b`)
	// toldYou is "everything you were told", "tudo o que te disseram".
	d.toldYou = scan(`\b(forget|ignore|disregard|esqueca|esquece|ignora|desconsidere)\b\W+(everything|all|tudo|todo)\b(?:\W+\w+){0,3}?\W+(you\s+(were|have\s+been|know|learned)|te\s+(disseram|falaram|ensinaram)|voce\s+(sabe|aprendeu|recebeu))\b`)

	d.identity = scan(`\b(you\s+are\s+now|you'?re\s+now|from\s+now\s+on,?\s+you(\s+are|'re|\s+will(\s+be)?)?|you\s+will\s+now\s+be|voce\s+agora\s+(e|sera|vai)|voce\s+e\s+agora|agora\s+voce\s+e|a\s+partir\s+de\s+agora,?\s+voce(\s+e|\s+sera|\s+vai(\s+ser)?)?|tu\s+agora\s+es)\b`)
	d.roleplay = scan(`\b(pretend\s+(to\s+be|you\s+are|you'?re)|role-?play\s+as|act\s+as(\s+if)?|play\s+the\s+role\s+of|aja\s+como|atue\s+como|atua\s+como|finja\s+(ser|que\s+voce\s+e|que\s+e\s+um)|faca\s+de\s+conta\s+que\s+voce|interprete\s+o\s+papel\s+de|assuma\s+o\s+papel\s+de|faca\s+o\s+papel\s+de)\b`)
	// travelRole names what the assistant is anyway.
	d.travelRole = regexp.MustCompile(`^(?:\W+[\w']+){0,3}?\W+(travel|trip|tour|tourist|local|guide|guia|agent|agente|planner|planejador|planejadora|concierge|receptionist|recepcionista|assistant|assistente|expert|especialista|photo|fotos?|album|viage\w*|turismo|turistico)\b`)
	// unbound is what a new identity must not be.
	d.unbound = re(`\b(dan|unfiltered|unrestricted|uncensored|jailbroken|evil\w*|hacker|pirate|pirata|interpreter|interpretador|terminal|shell|admin|administrator|administrador|root|developer|desenvolvedor|ia|ai|bot|no\s+(rules|restrictions|limits|filters)|without\s+(any\s+)?(rules|restrictions|limits|filters)|sem\s+(nenhuma\s+)?(regras|restricoes|restricao|limites|filtros))\b`)
	d.indefinite = re(`^\W+(a|an|um|uma)\W+(\w+)`)
	d.capital = re(`^\W+(o\s+|the\s+)?\p{Lu}\w*`)
	d.nextWord = re(`^\W+[\w']+`)

	d.extraction = []pattern{
		scan(`\b(reveal|show|print|repeat|display|output|leak|tell\s+me|give\s+me|what\s+(is|are|were))\b(?:\W+\w+){0,3}?\W+(your|the\s+system|your\s+system|the\s+hidden)\W+(system\s+)?(prompt|instructions|system\s+message|message|configuration|config|rules|guidelines)\b`),
		scan(`\b(repeat|print|output)\b(?:\W+\w+){0,2}?\W+(text|words|message|prompt)\s+above\b`),
		scan(`\bwhat\s+were\s+you\s+told\b`),
		scan(`\b(revele|revela|mostre|mostra|imprima|repita|repete|diga|exiba|vaze|me\s+de|me\s+da)\b(?:\W+\w+){0,3}?\W+(seu|sua|suas|seus|teu|tua)\W+(prompt|instrucoes|configuracao|mensagem\s+de\s+sistema|regras|diretrizes)\b`),
		scan(`\b(repita|repete|imprima)\b(?:\W+\w+){0,2}?\W+(texto|mensagem|prompt)\s+acima\b`),
	}
	return d
}

// DetectInjection reports whether text tries to change or reveal the
// assistant's instructions, and the phrase that gave it away.
func DetectInjection(text string) (string, bool) { return single.detect(text, nil) }

// detect returns the first phrase of text that tries to change or reveal
// the assistant's instructions and that keep keeps (every one when keep is
// nil). A phrase spans what gave it away, from its first word to its last.
func (d *detector) detect(text string, keep func(phrase string) bool) (string, bool) {
	kept := func(phrase string) bool { return keep == nil || keep(phrase) }
	f, at := folded(text)
	for _, r := range d.tokens {
		for _, m := range r.findAllString(f) {
			if kept(m) {
				return strings.TrimSpace(m), true
			}
		}
	}
	for _, loc := range d.override.findAll(f) {
		m := f[loc[0]:loc[1]]
		if (d.owners.MatchString(m) || !d.elsewhere.MatchString(f[loc[1]:])) && kept(m) {
			return m, true
		}
	}
	for _, m := range d.toldYou.findAllString(f) {
		if kept(m) {
			return m, true
		}
	}
	if m, ok := d.newIdentity(text, f, at, kept); ok {
		return m, true
	}
	for _, r := range d.extraction {
		for _, m := range r.findAllString(f) {
			if kept(m) {
				return m, true
			}
		}
	}
	return "", false
}

// newIdentity finds "you are now X" or role-play as X, where X is not the
// travel assistant it is, that kept keeps.
func (d *detector) newIdentity(text, f string, at []int, kept func(string) bool) (string, bool) {
	for _, r := range []pattern{d.identity, d.roleplay} {
		for _, loc := range r.findAll(f) {
			if phrase, ok := d.identityPhrase(r.Regexp, text, f, at, loc); ok && kept(phrase) {
				return phrase, true
			}
		}
	}
	return "", false
}

// identityPhrase judges one match of identity or role-play at loc in f,
// the folded text: the phrase and what it makes the assistant, or false.
func (d *detector) identityPhrase(r *regexp.Regexp, text, f string, at []int, loc []int) (string, bool) {
	phrase, rest := f[loc[0]:loc[1]], f[loc[1]:]
	if strings.HasSuffix(phrase, " if") {
		return "", false // "act as if money is no object"
	}
	window := rest[:min(len(rest), 80)]
	if m := d.unbound.FindStringIndex(window); m != nil {
		return phrase + window[:m[1]], true
	}
	if d.travelRole.MatchString(rest) {
		return "", false
	}
	if r == d.roleplay.Regexp {
		return phrase + d.nextWord.FindString(rest), true
	}
	if m := d.indefinite.FindString(rest); m != "" {
		return phrase + m, true
	}
	if m := d.capital.FindString(text[at[loc[1]]:]); m != "" {
		end := loc[1] // the folded text's end of the capitalised word
		for end < len(f) && at[end] < at[loc[1]]+len(m) {
			end++
		}
		return f[loc[0]:end], true
	}
	return "", false
}
