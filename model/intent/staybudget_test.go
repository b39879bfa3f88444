package intent

import "testing"

func TestStayBudgetAndKind(t *testing.T) {
	for _, tt := range []struct {
		text   string
		budget Budget
		kind   string
	}{
		{"budget-friendly hostel in Prague", Cheap, "hostel"},
		{"we're on a tight budget, any place in Rome?", Cheap, ""},
		{"low-cost stay in Madrid", Cheap, ""},
		{"something cheapish near the center", "", ""},
		{"cheaper than I thought, great", "", ""},
		{"pousada barata em Paraty", Cheap, "guesthouse"},
		{"hotel econômico em Recife", Cheap, ""},
		{"algo mais em conta?", Cheap, ""},
		{"nada muito caro, por favor", Cheap, ""},
		{"quero o melhor custo beneficio", Cheap, ""},
		{"luxury hotel in Dubai", Luxury, ""},
		{"hotel 5 estrelas no Rio", Luxury, ""},
		{"apartamento em Floripa pra 4", "", "apartment"},
		{"an airbnb in Lisbon", "", "apartment"},
		{"albergue em Foz", "", "hostel"},
		{"what's our budget for food?", "", ""},
		{"budget £500 total", "", ""},
	} {
		if b, k := StayBudget(tt.text), StayKind(tt.text); b != tt.budget || k != tt.kind {
			t.Errorf("%q: budget %q, kind %q; want %q, %q", tt.text, b, k, tt.budget, tt.kind)
		}
	}
}

// Price caps as travellers type them, in both languages: the ceiling
// word before or after the amount, signs, "per night" before or after,
// and what is no price.
func TestPriceCapsAsTyped(t *testing.T) {
	for _, tt := range []struct {
		text string
		want PriceCap
		ok   bool
	}{
		{"hotel <= 150/noite", PriceCap{150, "", false}, true},
		{"150 reais por noite no máximo", PriceCap{150, "BRL", false}, true},
		{"100 eur/nt max", PriceCap{100, "EUR", false}, true},
		{"80 eur max per night", PriceCap{80, "EUR", false}, true},
		{"nothing above 90 a night", PriceCap{90, "", false}, true},
		{"hotel in lisbon for under 100", PriceCap{100, "", false}, true},
		{"gastar no maximo 250 por dia", PriceCap{250, "", false}, true},
		{"diária de até 180", PriceCap{180, "", false}, true},
		{"até R$ 1.200 pela estadia toda", PriceCap{1200, "BRL", true}, true},
		{"100 dollars max a night", PriceCap{100, "USD", false}, true},
		{"paris from sept 20, max 1500 eur total", PriceCap{1500, "EUR", true}, true},
		{"pousada 150 reais por noite no maximo, 3 a 5 de abril", PriceCap{150, "BRL", false}, true},
		{"fico de 20 até 45.", PriceCap{}, false},
		{"hotel em lisboa de 10 até 25", PriceCap{}, false},
		{"3 nights max", PriceCap{}, false},
		{"up to 6 of us max", PriceCap{}, false},
	} {
		got, ok := ReadPriceCap(tt.text)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ReadPriceCap(%q) = %+v, %v; want %+v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}
