package offline

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/intent"
)

// smallTalk answers when no offered tool fits: thanks, greetings and
// other small talk in their own way, or a request the tools cannot serve;
// never with a search, nor by asking where to go.
func smallTalk(c conversation, e Extraction) string {
	last := ""
	if len(c.users) > 0 {
		last = c.users[len(c.users)-1]
	}
	switch {
	case e.Injection:
		return say(e.Language,
			"I can't change my instructions or act outside them. I can help you plan a trip: places to stay, restaurants and your travel photos.",
			"Não posso mudar minhas instruções nem agir fora delas. Posso ajudar a planejar sua viagem: hospedagem, restaurantes e suas fotos de viagem.")
	case e.Intent == intent.Photos:
		return say(e.Language, "I can't reach your photo albums right now.", "Não consigo acessar seus álbuns de fotos agora.")
	case len(e.Suggested) > 0:
		return suggestionReply(e)
	case e.Wish != nil:
		return wishReply(e)
	}
	switch intent.ReadTalk(last) {
	case intent.Thanks:
		return say(e.Language, "You're welcome! Anything else for your trip?", "De nada! Posso ajudar com mais alguma coisa na sua viagem?")
	case intent.Greeting:
		return say(e.Language,
			"Hello! I can find places to stay and restaurants for your trip, or look through your travel photos. What can I do for you?",
			"Olá! Posso buscar hospedagem e restaurantes para sua viagem, ou procurar nas suas fotos de viagem. Como posso ajudar?")
	case intent.HowAreYou:
		return say(e.Language,
			"I'm doing well, thanks for asking! How can I help with your trip?",
			"Tudo ótimo, obrigado por perguntar! Como posso ajudar na sua viagem?")
	case intent.Identity:
		return say(e.Language,
			"I'm a trip planning assistant: a program, not a person. I find places to stay and restaurants, and look through your travel photos.",
			"Sou um assistente de viagens: um programa, não uma pessoa. Busco hospedagem e restaurantes e procuro nas suas fotos de viagem.")
	case intent.Laugh:
		return say(e.Language, "Glad you're enjoying it! Anything else for your trip?", "Que bom! Posso ajudar com mais alguma coisa na sua viagem?")
	case intent.Unrelated:
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
	case e.Injection:
		return smallTalk(c, e)
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
