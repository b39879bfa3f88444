package guests

import "testing"

// Parties written with numbers in words, as lists of people and roles,
// roughly, or for the speaker alone.
func TestCountComposed(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		// Numbers in words past ten, and collective words.
		{"a dozen of us", 12},
		{"we are fourteen", 14},
		{"somos dezesseis", 16},
		{"meia dúzia de amigos", 6},
		{"com uma dúzia de amigos", 13},
		{"half a dozen friends", 6},
		{"twenty-two people", 22},
		{"vinte e duas pessoas", 22},
		// Lists of people and roles.
		{"grandma, grandpa, 2 parents and 3 kids", 7},
		{"grandparents, 2 parents and 3 kids", 7},
		{"my wife, our two kids and the nanny", 5},
		{"me, my wife and our newborn", 3},
		{"nós 3 + a vó", 4},
		{"eu, minha mãe, a babá e as 2 crianças", 5},
		// Roughly, in a group, or the speaker alone.
		{"com a galera, uns 8", 8},
		{"a gente é em 5", 5},
		{"3 backpackers", 3},
		{"just for me", 1},
		{"só pra mim", 1},
		{"a hotel for me", 1},
		{"I need a room, 1 person", 1},
		{"somos um casal", 2},
		// Someone named who does not come.
		{"meu chefe aprovou minhas férias, vou levar minha namorada", 2},
	}
	for _, tt := range tests {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// A whole count stands beside a change in the same message.
func TestTotal(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"my brother bailed so just 3 now", 3},
		{"na verdade somos 6, vem mais um casal", 6},
		{"actually one of us can't come", 0},
		{"two more of us", 0},
		{"just 3 nights", 0},
	}
	for _, tt := range tests {
		if got := Total(tt.text); got != tt.want {
			t.Errorf("Total(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
	if got := Change("vem mais um casal"); got != 2 {
		t.Errorf("Change(vem mais um casal) = %d, want 2", got)
	}
}

// People named beside a larger count are some of them; a count the
// speaker lists otherwise is a conflict.
func TestConflictSubset(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"my sister got engaged, there's gonna be 5 of us total", false},
		{"somos 4, eu e minha esposa", true},
		{"3 of us: me, my wife and my 2 kids", true},
	}
	for _, tt := range tests {
		if got := Conflict(tt.text); got != tt.want {
			t.Errorf("Conflict(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
