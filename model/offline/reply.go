package offline

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/intent"
)

// smallTalk answers when no offered tool fits: thanks, greetings, or a
// request the tools cannot serve.
func smallTalk(c conversation, e Extraction) string {
	last := ""
	if len(c.users) > 0 {
		last = c.users[len(c.users)-1]
	}
	switch {
	case thanks(last):
		return say(e.Language, "You're welcome! Anything else for your trip?", "De nada! Posso ajudar com mais alguma coisa na sua viagem?")
	case e.Intent == intent.Photos:
		return say(e.Language, "I can't reach your photo albums right now.", "Não consigo acessar seus álbuns de fotos agora.")
	case intent.OffTopic(last):
		return say(e.Language,
			"Sorry, I can't help with that. I plan trips: I find places to stay and restaurants, and look through your travel photo albums.",
			"Desculpe, com isso eu não consigo ajudar. Eu planejo viagens: busco hospedagem e restaurantes e procuro nos seus álbuns de fotos de viagem.")
	}
	return say(e.Language,
		"I can find places to stay and restaurants for your trip, or look through your photo albums. What would you like?",
		"Posso buscar hospedagem e restaurantes para sua viagem, ou procurar nos seus álbuns de fotos. O que você gostaria?")
}

// plainReply answers a request without tools, such as "phrase a question
// asking for the destination".
func plainReply(c conversation) string {
	e := Understand(c.users, c.today)
	all := strings.ToLower(c.system + " " + strings.Join(c.users, " "))
	switch {
	case e.Location == "" && (strings.Contains(all, "location") || strings.Contains(all, "destination") || strings.Contains(all, "where")):
		return say(e.Language,
			"Where would you like to go? Tell me the city, your dates and how many people are travelling.",
			"Para onde você gostaria de ir? Me diga a cidade, as datas e quantas pessoas vão viajar.")
	case e.Intent == intent.Other || e.Intent == intent.None:
		return smallTalk(c, e)
	}
	return say(e.Language,
		"Got it. I'll look for options in "+orSomewhere(e)+".",
		"Entendi. Vou procurar opções em "+orSomewhere(e)+".")
}

func orSomewhere(e Extraction) string {
	switch {
	case e.Location != "":
		return e.Location
	case e.Country != "":
		return e.Country
	}
	return say(e.Language, "your destination", "seu destino")
}

// thanks reports a message that thanks: "thanks", "ty", "valeu", "vlw".
func thanks(text string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ' ' || r == ',' || r == '!' || r == '.' }) {
		switch {
		case strings.HasPrefix(w, "thank"), strings.HasPrefix(w, "obrigad"), strings.HasPrefix(w, "brigad"),
			w == "thx", w == "ty", w == "tysm", w == "valeu", w == "vlw", w == "obg", w == "cheers":
			return true
		}
	}
	return false
}
