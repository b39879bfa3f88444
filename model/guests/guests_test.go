package guests

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"hotel for 4 people", 4},
		{"my boss said Rome is great", 0},
		{"meu marido disse que Lisboa é linda", 0},
		{"3 of us going to Lisbon", 3},
		{"somos 3", 3},
		{"me and my wife", 2},
		{"eu e minha esposa", 2},
		{"family of five", 5},
		{"família de 4", 4},
		{"vou sozinho", 1},
		{"traveling alone", 1},
		{"solo trip to Tokyo", 1},
		{"2 adults and 2 kids", 4},
		{"2 adultos e 1 criança", 3},
		{"um casal", 2},
		{"com meus pais", 3},
		{"me, my wife and our 2 kids", 4},
		{"me and 3 friends", 4},
		{"eu e 2 amigos", 3},
		{"for 5 nights", 0},
		{"a couple of nights in Rome", 0},
		{"hotel in Paris", 0},
		{"we are 6", 6},
		{"we're four", 4},
		{"vamos em 4", 4},
		{"para 2 pessoas", 2},
		{"table for 4", 4},
		{"honeymoon in Bali", 2},
		{"lua de mel em Paris", 2},
		{"just me", 1},
		{"two adults, one child", 3},
		{"hotel for 3 in Lisbon", 3},
		{"4 nights for 2", 2},
		{"quarto para 3 pessoas", 3},
		{"com minha namorada", 2},
		{"with my husband and kids", 4},
	}
	for _, tt := range tests {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestCountMore(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"heading to seoul with 3 friends", 4},
		{"viagem com 2 amigos", 3},
		{"3 nights, 4 guys", 4},
		{"romantic dinner spot in Venice", 0},
		{"hotel em BH pra dois, 12/03 a 15/03", 2},
	}
	for _, tt := range tests {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestChange(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"two more of us are coming", 2},
		{"one more is coming", 1},
		{"mais dois", 2},
		{"vai mais um amigo", 1},
		{"mais 3", 3},
		{"two more nights", 0},
		{"mais dois dias", 0},
		{"actually one of us can't come", -1},
		{"um de nós desistiu", -1},
		{"one less person", -1},
		{"um a menos", -1},
		{"my parents are joining us too", 2},
		{"my brother and his wife are coming too", 2},
		{"hotel in Rome for 4", 0},
	}
	for _, tt := range tests {
		if got := Change(tt.text); got != tt.want {
			t.Errorf("Change(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestCountGroups(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"Um casal procurando pousada", 2},
		{"um casal com dois filhos", 4},
		{"eu, minha esposa e o bebê", 3},
		{"dez de nós", 10},
		{"vamos a Salvador", 0},
		{"vamos ser só 3", 3},
	}
	for _, tt := range tests {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
