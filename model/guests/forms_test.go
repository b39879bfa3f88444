package guests

import "testing"

// Parties as travellers write them.
func TestCountForms(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"Rome with 2 couples", 4},
		{"two couples and a kid", 5},
		{"somos 4 casais", 8},
		{"três casais e duas crianças", 8},
		{"eu e mais 2", 3},
		{"me plus 3", 4},
		{"eu + 4", 5},
		{"nós 3 em Natal", 3},
		{"nós cinco", 5},
		{"me, my wife and our twins", 4},
		{"eu e as gêmeas", 3},
		{"3 adults + 1 toddler", 4},
		{"2 adults and an infant", 3},
		{"with my kids and my in-laws", 5},
		{"me and my siblings", 3},
		{"family of 3 plus grandpa", 4},
		{"família de 4 mais a avó", 5},
		{"2 people + our cat", 2},
		{"somos 3 e o cachorro", 3},
		{"eu, minha cunhada e meu sobrinho", 3},
		{"vou com minhas três primas", 4},
	}
	for _, tt := range tests {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// Later changes of the party.
func TestChangeForms(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"my brother can't make it", -1},
		{"minha prima desistiu", -1},
		{"my in-laws cancelled", -2},
		{"we're bringing my dad", 1},
		{"vamos levar meus pais", 2},
		{"a tia vem junto", 1},
	}
	for _, tt := range tests {
		if got := Change(tt.text); got != tt.want {
			t.Errorf("Change(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestConflict(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"somos 4, eu e minha esposa", true},
		{"3 of us: me and my husband", true},
		{"somos 2, eu e minha esposa", false},
		{"me and my wife, hotel for 2", false},
		{"family of 4", false},
	}
	for _, tt := range tests {
		if got := Conflict(tt.text); got != tt.want {
			t.Errorf("Conflict(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
