package intent

import (
	"slices"
	"testing"
)

func TestDiets(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"one of us is vegetarian", []string{"vegetarian"}},
		{"sou vegana e meu marido é celíaco", []string{"vegan", "gluten-free"}},
		{"we need gluten-free food, and my son is lactose intolerant", []string{"gluten-free", "lactose-free"}},
		{"comida sem glúten e sem lactose", []string{"gluten-free", "lactose-free"}},
		{"4 nights in Lisbon in May", nil},
		{"vegetarian restaurants in Porto", []string{"vegetarian"}},
	} {
		if got := Diets(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Diets(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestChildrenAges(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int
	}{
		{"2 adults and 2 kids aged 5 and 8", []int{5, 8}},
		{"we have two children, 5 and 8 years old", []int{5, 8}},
		{"eu, minha esposa e nossos filhos de 5 e 8 anos", []int{5, 8}},
		{"minha filha de 3 anos vem junto", []int{3}},
		{"2 adults and 2 kids", nil},
		{"4 nights in Lisbon with the kids in May 2027", nil},
		{"kids 10, 12 and 15 years", []int{10, 12, 15}},
	} {
		if got := ChildrenAges(c.text); !slices.Equal(got, c.want) {
			t.Errorf("ChildrenAges(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestForget(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"forget what you know about me", true},
		{"Please forget me", true},
		{"delete my data", true},
		{"esqueça meus dados", true},
		{"apague o que você sabe sobre mim", true},
		{"esquece o que você sabe de mim", true},
		{"forget Salvador, let's do Recife", false},
		{"esquece o hotel, quero restaurantes", false},
		{"forget the cheap hotels", false},
		{"delete the booking", false},
	} {
		if got := Forget(c.text); got != c.want {
			t.Errorf("Forget(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
