package guests

import "testing"

// A person named by a pronoun beside the speaker counts: "eu e ela",
// "me and him"; "her" before a person is whose that person is.
func TestPronounBesideTheSpeaker(t *testing.T) {
	for _, tt := range []struct {
		text string
		want int
	}{
		{"pousada em paraty, eu e ela, 3 a 5 de abril", 2},
		{"hotel pra mim e ela", 2},
		{"me and him, rome in may", 2},
		{"ela e eu vamos pra salvador", 2},
		{"me and her sister", 2},
		{"she loves Rome", 0},
	} {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
