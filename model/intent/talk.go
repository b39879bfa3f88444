package intent

// Talk is a kind of message that is not a trip request: small talk, or a
// question none of the trip tools can serve.
type Talk int

// The kinds of talk, each answered in its own way.
const (
	NoTalk    Talk = iota
	Greeting       // "good morning!", "bom dia", "e aí"
	HowAreYou      // "how's your day going?", "tudo bem com vc?"
	Identity       // "are you a robot?", "quem é você?"
	Thanks         // "thanks", "valeu"
	Laugh          // "lol ok", "kkkk"
	Unrelated      // the weather, general knowledge, homework, a phone to buy
)

var (
	greetingWords = set(`hi hello hey hiya howdy yo morning afternoon evening oi ola salve eae eai opa alo`)
	thanksWords   = set(`thanks thank thx ty tysm cheers obrigado obrigada valeu vlw obg brigado brigada agradeco`)
	laughWords    = set(`lol lmao haha hahaha hehe rofl kkk kkkk kkkkk rsrs rsrsrs hahah`)
	// identityWords are what a traveller may ask the assistant whether
	// it is.
	identityWords = set(`robot robo bot ai ia human humano humana person pessoa real machine maquina chatbot`)
	// moreOffTopic are subjects none of the trip tools serve, besides the
	// weather and general knowledge of offTopicWords.
	moreOffTopic = set(`pope papa phone celular smartphone laptop computer computador netflix series serie
novela game jogo futebol football soccer match partida score placar news noticias politics politica election
eleicao bitcoin crypto stock stocks acoes bolsa lottery loteria horoscope horoscopo buy comprar
notebook camera`)
)

// ReadTalk tells small talk and questions off the trip from trip
// requests. A message that also asks for a trip is no talk.
func ReadTalk(text string) Talk {
	w := words(text)
	if len(w) == 0 {
		return NoTalk
	}
	switch d := Detect(text); {
	case d != Other && d != None:
		return NoTalk
	case identity(w):
		return Identity
	case howAreYou(w):
		return HowAreYou
	case offTopic(w) || offTopicQuestion(w):
		return Unrelated
	}
	for _, s := range w {
		switch {
		case thanksWords[s]:
			return Thanks
		case laughPT(s) || laughWords[s]:
			return Laugh
		}
	}
	if greeting(w) {
		return Greeting
	}
	return NoTalk
}

// greeting reads "hi", "good morning", "bom dia", "boa noite", "e aí".
func greeting(w []string) bool {
	for i, s := range w {
		switch {
		case greetingWords[s] && s != "morning" && s != "afternoon" && s != "evening":
			return true
		case (s == "morning" || s == "afternoon" || s == "evening" || s == "night") && at(w, i-1) == "good":
			return true
		case (s == "dia" && at(w, i-1) == "bom") || (s == "tarde" || s == "noite") && at(w, i-1) == "boa" && i <= 1:
			return true
		case s == "ai" && at(w, i-1) == "e" && i <= 1:
			return true
		}
	}
	return false
}

// howAreYou reads "how are you", "how's it going", "how's your day",
// "tudo bem?", "tudo bom?", "como vai?", "como você está?".
func howAreYou(w []string) bool {
	for i, s := range w {
		switch {
		case s == "how" && (at(w, i+1) == "are" || at(w, i+1) == "s" || at(w, i+1) == "is") && (has(w, "you", "going", "day", "life", "things")):
			return true
		case s == "tudo" && (at(w, i+1) == "bem" || at(w, i+1) == "bom" || at(w, i+1) == "certo" || at(w, i+1) == "joia") && len(w) <= 5:
			return true
		case s == "como" && (at(w, i+1) == "vai" || at(w, i+1) == "voce" && (at(w, i+2) == "esta" || at(w, i+2) == "ta") || at(w, i+1) == "esta" && at(w, i+2) == "voce"):
			return true
		case s == "whats" && at(w, i+1) == "up", s == "what" && at(w, i+1) == "s" && at(w, i+2) == "up":
			return true
		}
	}
	return false
}

// identity reads "are you a robot?", "você é um robô?", "who are you?",
// "quem é você?", "what's your name?", "qual o seu nome?".
func identity(w []string) bool {
	for i, s := range w {
		switch {
		case identityWords[s] && (has(w, "you", "voce", "vc") || at(w, i-1) == "um" || at(w, i-1) == "a"):
			return true
		case s == "who" && at(w, i+1) == "are" && at(w, i+2) == "you":
			return true
		case s == "quem" && (at(w, i+1) == "e" || at(w, i+1) == "es") && (at(w, i+2) == "voce" || at(w, i+2) == "vc" || at(w, i+2) == "tu"):
			return true
		case s == "name" && has(w, "your"), s == "nome" && has(w, "seu", "teu"):
			return true
		}
	}
	return false
}

// offTopicQuestion reads questions none of the trip tools serve, beyond
// offTopic's: "who won the game?", "quem ganhou?", "what's the best phone
// to buy?", "quanto é 15% de 200?", "can you help with my homework?".
func offTopicQuestion(w []string) bool {
	for i, s := range w {
		switch {
		case moreOffTopic[s]:
			return true
		case s == "who" && (at(w, i+1) == "s" || at(w, i+1) == "is" || at(w, i+1) == "won" || at(w, i+1) == "was" || at(w, i+1) == "invented"):
			return true
		case s == "quem" && (at(w, i+1) == "ganhou" || at(w, i+1) == "venceu" || at(w, i+1) == "e" || at(w, i+1) == "foi"):
			return true
		case s == "quanto" && at(w, i+1) == "e" && i+2 < len(w) && isDigits(at(w, i+2)):
			return true // "quanto é 15% de 200?"
		case s == "homework" || s == "licao" && at(w, i+2) == "casa" || s == "tarefa" && has(w, "escola", "faculdade"):
			return true
		}
	}
	return false
}
