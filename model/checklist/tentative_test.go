package checklist_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/offline"
)

// wantTrip checks a request for a trip to city: the destination, no
// legs, no open question, a search (intent trip), and the dates given.
func wantTrip(city string, start, end time.Time) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		switch {
		case e.Wish != nil:
			return "read as an open question"
		case e.Location != city:
			return fmt.Sprintf("location %q, want %q", e.Location, city)
		case len(e.Legs) > 0:
			return fmt.Sprintf("%d legs, want one city", len(e.Legs))
		case e.Intent != intent.Trip:
			return fmt.Sprintf("intent %q, want trip", e.Intent)
		}
		return wantDates(start, end)(e)
	}
}

// tentativeEN and tentativePT put a destination forward without
// deciding on it; %s is the city.
var (
	tentativeEN = []string{"maybe %s?", "perhaps %s?", "thinking of %s", "how about %s?", "what about %s",
		"%s maybe?", "considering %s", "possibly %s"}
	tentativePT = []string{"talvez %s?", "quem sabe %s?", "pensando em %s", "que tal %s?", "%s talvez?",
		"pensei em %s", "quem sabe %s"}
)

// periodEN and periodPT are dates the trip is for, with the days they
// give (the first week of a month: the 1st to the 8th).
type period struct {
	en, pt     string
	start, end time.Time
}

func periods() []period {
	var out []period
	for m := 1; m <= 12; m++ {
		first := next(time.Month(m), 1)
		if first.Before(today) || first.Equal(today) {
			first = first.AddDate(1, 0, 0)
		}
		s := next(time.Month(m), 10)
		out = append(out,
			period{"first week of " + monthsEN[m], "primeira semana de " + monthsPT[m], first, first.AddDate(0, 0, 7)},
			period{fmt.Sprintf("%s 10-14", monthsEN[m][:3]), fmt.Sprintf("de 10 a 14 de %s", monthsPT[m]), s, s.AddDate(0, 0, 4)},
		)
	}
	return out
}

// tentativeDestinations: a destination put forward tentatively ("maybe
// X?", "talvez X", "thinking of X"), in a sentence with dates and a
// party, in lower case too, is the trip's destination, not a question
// off the trip nor an open question.
func tentativeDestinations() []test {
	var out []test
	ps := periods()
	for i, c := range pick(destinations, 2, 0) {
		p := ps[i%len(ps)]
		en := tentativeEN[i%len(tentativeEN)]
		pt := tentativePT[i%len(tentativePT)]
		name, nome := c.en, c.pt
		if i%3 == 0 {
			name, nome = strings.ToLower(name), strings.ToLower(nome)
		}
		for _, tc := range []struct{ lang, text string }{
			{"en", fmt.Sprintf(en, name) + " " + p.en + ", 3 of us"},
			{"en", "we're 2, " + p.en + ". " + fmt.Sprintf(en, name)},
			{"pt", fmt.Sprintf(pt, nome) + " " + p.pt + ", somos 3"},
			{"pt", "eu e minha esposa, " + p.pt + ". " + fmt.Sprintf(pt, nome)},
		} {
			out = append(out, test{"requests/tentative destination", "MFT", tc.lang, []string{tc.text}, wantTrip(c.en, p.start, p.end)})
		}
	}
	return out
}

// pastThenNew: a trip that was ("we did X last year", "fomos pra X ano
// passado") beside this trip's destination: the new one is the
// destination, with no legs.
func pastThenNew() []test {
	pastEN := []string{"we did %s last year and loved it", "we went to %s 2 years ago", "been to %s already",
		"did %s last summer", "we visited %s back in 2019"}
	pastPT := []string{"fomos pra %s ano passado e amamos", "ja fizemos %s no verao passado", "estivemos em %s ha dois anos, anos atras",
		"ja fui pra %s", "visitamos %s mes passado"}
	var out []test
	ps := periods()
	for i, c := range pick(destinations, 3, 1) {
		old := destinations[(i*7+11)%len(destinations)]
		if old == c {
			continue
		}
		p := ps[(i+5)%len(ps)]
		en, pt := pastEN[i%len(pastEN)], pastPT[i%len(pastPT)]
		for _, tc := range []struct{ lang, text string }{
			{"en", fmt.Sprintf(en, old.en) + ", this time " + fmt.Sprintf(tentativeEN[i%len(tentativeEN)], c.en) + " " + p.en + ", 4 of us"},
			{"en", fmt.Sprintf(en, old.en) + ". now " + c.en + " " + p.en + " for 4 people"},
			{"pt", fmt.Sprintf(pt, old.pt) + ", dessa vez " + fmt.Sprintf(tentativePT[i%len(tentativePT)], c.pt) + " " + p.pt + ", somos 4"},
			{"pt", fmt.Sprintf(pt, old.pt) + ". agora " + c.pt + " " + p.pt + " pra 4 pessoas"},
		} {
			out = append(out, test{"requests/past trip and a new one", "MFT", tc.lang, []string{tc.text}, all(wantTrip(c.en, p.start, p.end), wantGuests(4))})
		}
	}
	return out
}

// softPreferences: a preference for the stay said in passing ("something
// central would be great", "algo perto do centro") changes nothing of
// the request: the same place, dates, party and intent, and no open
// question.
func softPreferences() []test {
	prefsEN := []string{"something central would be great", "somewhere quiet would be nice", "near the beach ideally",
		"ideally close to the center", "a quiet area would be perfect", "walkable area pls", "cool if its central",
		"somewhere near the old town would be ok"}
	prefsPT := []string{"algo perto do centro seria otimo", "lugar tranquilo de preferencia", "perto da praia seria legal",
		"algo central seria perfeito", "de preferencia num bairro calmo", "algo perto de tudo", "se der, perto do metro"}
	var out []test
	for t, tpl := range templates {
		if strings.HasPrefix(tpl.text, "restaurant") {
			continue // a preference for the stay says nothing of restaurants
		}
		for i, c := range pick(destinations, 10, t) {
			base := fill(tpl.text, c)
			want := understand([]string{base})
			check := func(e offline.Extraction) string {
				if e.Wish != nil {
					return "read as an open question"
				}
				if e.Location != want.Location {
					return fmt.Sprintf("location %q, was %q", e.Location, want.Location)
				}
				return same(want)(e)
			}
			prefs := prefsEN
			if tpl.lang == "pt" {
				prefs = prefsPT
			}
			for k := 0; k < 2; k++ {
				p := prefs[(i*2+k+t)%len(prefs)]
				text := base + ", " + p
				if k == 1 {
					text = p + ". " + base
				}
				out = append(out, test{"requests/soft preferences", "INV", tpl.lang, []string{text}, check})
			}
		}
	}
	return out
}
