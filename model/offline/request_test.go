package offline

import (
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/internal/chatwords"
)

// A long message that tells of a trip that was, the party of this one, a
// soft preference for the stay and a destination put forward tentatively
// ("maybe X?", "talvez X", "thinking of X") is a request for that
// destination: not talk off the trip, not an open question, and the
// trip that was is neither the destination nor a leg.
func TestTentativeRequests(t *testing.T) {
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC) // a Sunday
	d := func(m time.Month, day int) string {
		return time.Date(2027, m, day, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	}
	tests := []struct {
		text, location, start, end string
		guests                     int
	}{
		{"we did Paris back in 2023, loved it, but now my in-laws want to come so that makes 5 of us, and my mum hates stairs so something central would be ideal. maybe Madrid? first week of April",
			"Madrid", d(4, 1), d(4, 8), 5},
		{"we went to rome 2 yrs ago and it was great!! this year my brother and his wife are coming too so 4 ppl total. something quiet would be perfect, perhaps florence? 2nd week of june",
			"Florence", d(6, 8), d(6, 15), 4},
		{"did barcelona last summer, amazing. now thinking of porto for the first week of september, me and my gf, somewhere near the beach would be cool",
			"Porto", d(9, 1), d(9, 8), 2},
		{"perhaps Berlin? 3 of us, first week of March, something central pls", "Berlin", d(3, 1), d(3, 8), 3},
		{"maybe tokyo? we loved seoul last year. 2 adults, march 3 to 10", "Tokyo", d(3, 3), d(3, 10), 2},
		{"how about lisbon, may 4-9, me + 2 friends, quiet area would be great", "Lisbon", d(5, 4), d(5, 9), 3},
		{"fomos pra salvador ano passado e amamos, mas dessa vez meus pais querem ir junto entao seremos 4, algo perto do centro seria otimo. talvez recife? primeira semana de maio",
			"Recife", d(5, 1), d(5, 8), 4},
		{"ja fizemos floripa no verao passado, dessa vez pensando em natal, eu minha esposa e os 2 filhos, algo perto da praia seria legal, primeira semana de fevereiro",
			"Natal", d(2, 1), d(2, 8), 4},
		{"quem sabe lisboa? fomos a porto ano passado. somos 3, segunda semana de outubro, algo tranquilo", "Lisbon", d(10, 8), d(10, 15), 3},
		{"talvez buenos aires? de 3 a 8 de marco, eu e meu marido, algo central seria perfeito", "Buenos Aires", d(3, 3), d(3, 8), 2},
		{"que tal gramado? 2 casais, de 10 a 13 de julho, algo aconchegante seria otimo", "Gramado", d(7, 10), d(7, 13), 4},
		{"estivemos em paris mes passado. agora pensando em roma, primeira semana de junho, eu e minha mae", "Rome", d(6, 1), d(6, 8), 2},
	}
	for _, tt := range tests {
		e := Understand([]string{chatwords.Expand(tt.text)}, today)
		got := [4]string{e.Location, isoDate(e.Dates.Start), isoDate(e.Dates.End)}
		want := [4]string{tt.location, tt.start, tt.end}
		if got != want || e.Guests != tt.guests || e.Intent != intent.Trip || e.Wish != nil || len(e.Legs) > 0 {
			t.Errorf("%q:\n got %v, %d guests, intent %q, wish %v, %d legs\nwant %v, %d guests, a trip", tt.text, got, e.Guests, e.Intent, e.Wish != nil, len(e.Legs), want, tt.guests)
		}
	}
}

// A word of small talk in a request ("would be great", "seria ótimo")
// leaves it a request; alone it is small talk.
func TestSmallTalkWordsInRequests(t *testing.T) {
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		want intent.Intent
	}{
		{"great", intent.Other},
		{"perfeito!", intent.Other},
		{"cool thanks", intent.Other},
		{"Oslo in March for 2 would be great", intent.Trip},
		{"algo no centro de Curitiba seria otimo, 2 pessoas em abril", intent.Trip},
		{"perfect, and Porto after that for 3 nights?", intent.Trip},
	} {
		if e := Understand([]string{tt.text}, today); e.Intent != tt.want {
			t.Errorf("%q: intent %q, want %q", tt.text, e.Intent, tt.want)
		}
	}
}
