package intent

import (
	"slices"
	"strconv"
)

// What a traveller tells about themselves that a planner may remember:
// their diet, their children's ages, and their wish to be forgotten.

// dietWords name diets, folded, by the name the planner keeps.
var dietWords = map[string]string{
	"vegetarian": "vegetarian", "vegetarians": "vegetarian", "vegetariano": "vegetarian", "vegetariana": "vegetarian",
	"vegetarianos": "vegetarian", "vegetarianas": "vegetarian", "veggie": "vegetarian",
	"vegan": "vegan", "vegans": "vegan", "vegano": "vegan", "vegana": "vegan", "veganos": "vegan", "veganas": "vegan",
	"celiac": "gluten-free", "coeliac": "gluten-free", "celiaco": "gluten-free", "celiaca": "gluten-free",
	"halal": "halal", "kosher": "kosher",
}

// Diets lists, in order, the diets a message says someone keeps:
// "one of us is vegetarian", "sou vegana", "gluten-free", "sem glúten",
// "lactose intolerant", "sem lactose".
func Diets(text string) []string {
	w := words(text)
	var out []string
	add := func(d string) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	for i, s := range w {
		switch {
		case dietWords[s] != "":
			add(dietWords[s])
		case s == "gluten" && (at(w, i+1) == "free" || at(w, i-1) == "sem" || at(w, i-1) == "no"):
			add("gluten-free")
		case s == "lactose" && (at(w, i+1) == "free" || at(w, i+1) == "intolerant" || at(w, i-1) == "sem" || at(w, i-1) == "no"):
			add("lactose-free")
		}
	}
	return out
}

var (
	childWords = set(`kid kids child children son sons daughter daughters boy boys girl girls baby babies
crianca criancas filho filhos filha filhas menino meninos menina meninas bebe bebes`)
	ageBefore = set(`aged ages age of de com idade idades`)
	ageAfter  = set(`years year yo anos ano`)
	ageJoin   = set(`and e`)
)

// ChildrenAges reads the ages of the children a message tells of, in
// order: "kids aged 5 and 8", "two children, 5 and 8 years old",
// "filhos de 5 e 8 anos", "minha filha de 3 anos". Numbers with no word
// of age around them ("2 kids") are counts, not ages.
func ChildrenAges(text string) []int {
	w := words(text)
	var out []int
	for i, s := range w {
		if !childWords[s] {
			continue
		}
		for j := i + 1; j < len(w) && j <= i+4; j++ {
			if _, err := strconv.Atoi(w[j]); err != nil {
				continue
			}
			ages, end := agesFrom(w, j)
			if len(ages) > 0 && (ageBefore[at(w, j-1)] || ageAfter[at(w, end)] || at(w, end) == "old") {
				return ages
			}
			break
		}
	}
	return out
}

// agesFrom reads a list of numbers from w[j]: "5 and 8", "5, 8 e 10".
func agesFrom(w []string, j int) ([]int, int) {
	var ages []int
	for j < len(w) {
		n, err := strconv.Atoi(w[j])
		if err != nil || n > 17 {
			break
		}
		ages = append(ages, n)
		j++
		if ageJoin[at(w, j)] {
			j++
		}
	}
	return ages, j
}

// forgetVerbs ask to forget or delete; aboutMe are what they ask it of.
var (
	forgetVerbs = set(`forget delete erase remove wipe clear esqueca esquece esquecer apague apaga apagar delete deleta deletar remova remover limpe limpar`)
	aboutMe     = set(`me my mim meus minhas meu minha`)
	aboutData   = set(`data profile information info details dados perfil informacoes`)
)

// Forget reports a message asking the planner to forget what it knows of
// the traveller: "forget what you know about me", "delete my data",
// "esqueça meus dados", "apague o que você sabe sobre mim". Forgetting a
// place or a hotel ("forget Salvador", "esquece o hotel") is not it.
func Forget(text string) bool {
	w := words(text)
	for i, s := range w {
		if !forgetVerbs[s] {
			continue
		}
		rest := w[i+1 : min(len(w), i+9)]
		for k, r := range rest {
			if aboutData[r] && k > 0 && aboutMe[rest[k-1]] { // "my data", "meus dados"
				return true
			}
			if r == "me" && k == 0 && (len(rest) == 1 || !isWordAfterMe(rest[1])) { // "forget me"
				return true
			}
			if (r == "about" || r == "sobre" || r == "de") && k+1 < len(rest) && (rest[k+1] == "me" || rest[k+1] == "mim") &&
				(slices.Contains(rest[:k], "know") || slices.Contains(rest[:k], "sabe") || slices.Contains(rest[:k], "knows") ||
					slices.Contains(rest[:k], "remember") || slices.Contains(rest[:k], "lembra")) {
				return true // "what you know about me", "o que você sabe sobre mim"
			}
		}
	}
	return false
}

// isWordAfterMe tells "forget me" from "forget me the hotel", which is no
// request to forget the traveller... and from "delete me a booking".
func isWordAfterMe(s string) bool { return s != "please" && s != "por" && s != "now" && s != "agora" }
