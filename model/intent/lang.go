package intent

import (
	"strings"

	"github.com/tripgraph/tripgraph/locale"
)

var (
	ptWords = set(`de da do das dos em no na nos nas que para pra pro com uma um
eu meu minha meus minhas voce nao sim por favor quero queria preciso gostaria
fotos foto noites noite pessoas semana dias mes ate e o os as ao hotel hoteis
restaurantes restaurante viagem onde ficar comer somos vamos mostre mostra
quais qual tenho obrigado obrigada oi ola proximo proxima fim esposa marido
barato barata perto pousada hospedagem ferias albuns amanha julho maio junho
agosto janeiro fevereiro marco abril setembro outubro novembro dezembro
valeu vlw obg brigado brigada blz beleza mano tchau conta piada fala
voce vc tudo bem legal massa show ta tá entao quem como porque esta sao tem isso aquilo
bom dia boa tarde engracado robo celular melhor comprar ajuda licao casa`)
	enWords = set(`the and for with in to my of we i me you please want need
looking find show photos photo pictures nights night people week days month
from hotel hotels restaurants restaurant trip where stay eat are is our us
what which how can could would like next this weekend thanks thank hi hello
cheap near wife husband kids family albums tomorrow july may june august
january february march april september october november december some any
thx ty tysm cool lol bye yeah yes nope okay tell joke weather
good morning evening afternoon robot phone buy best series homework math going day
now an act just only instead`)
)

// Language returns one of locale.All for a message, or "" when it cannot tell.
// Portuguese letters (ã, ç, õ) and common words decide.
func Language(text string) string {
	pt, en := 0, 0
	for _, r := range text {
		switch r {
		case 'ã', 'õ', 'ç', 'Ã', 'Õ', 'Ç', 'ê', 'á', 'é', 'í', 'ó', 'ú', 'â', 'ô':
			pt++
		}
	}
	pt = min(pt, 2)
	for _, s := range words(text) {
		if laughPT(s) {
			pt += 2
		}
		if ptWords[s] && !enWords[s] {
			pt++
		}
		if enWords[s] && !ptWords[s] {
			en++
		}
	}
	switch {
	case pt > en:
		return locale.Portuguese
	case en > pt:
		return locale.English
	}
	return ""
}

// laughPT reports Brazilian written laughter: "kkkk", "rsrs".
func laughPT(s string) bool {
	if len(s) >= 3 && strings.Trim(s, "k") == "" {
		return true
	}
	return len(s) >= 2 && len(s)%2 == 0 && strings.ReplaceAll(s, "rs", "") == ""
}
