package locale

import "testing"

func TestOf(t *testing.T) {
	for in, want := range map[string]string{"pt-BR": Portuguese, "PT": Portuguese, " en-GB ": English, "fr": Default, "": Default, "ptx": Default} {
		if got := Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	for in, want := range map[string]string{
		"pt-BR,pt;q=0.9,en;q=0.8": Portuguese,
		"pt-PT":                   Portuguese,
		"en-US,en;q=0.9,pt;q=0.1": English,
		"fr-FR":                   Default,
		"":                        Default,
		"not a header;;;":         Default,
		"de-DE,pt;q=0.7":          Portuguese,
		"en;q=0.1,pt;q=0.9":       Portuguese,
	} {
		if got := FromAcceptLanguage(in); got != want {
			t.Errorf("FromAcceptLanguage(%q) = %q, want %q", in, got, want)
		}
	}
}
