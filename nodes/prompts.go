package nodes

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/locale"
)

// The prompts end with lines the offline model reads too (see package
// model/offline): "Today: YYYY-MM-DD" and, for callTools, "Trip details:"
// followed by one line of JSON.

const extractionPrompt = `You are the trip planner's extraction step. Read the whole conversation
and call the extract tool with what the traveller has said about their trip:
the destination city (its English name) and country, the start and end dates
as YYYY-MM-DD, a number of nights if they gave a duration, and the number of
guests. Leave out anything they did not say: never guess dates or guests.
Later messages override earlier ones. For a trip of several cities ("Lisbon
then Porto"), also give the legs in order, each with its city and the dates
or nights said for it. List in unsure the fields you could only guess from
the last message (a misspelt place, a party counted two ways). Also give the
intent (accommodations, restaurants, trip for both, photos for questions
about their own photos and albums, other) and the language of the traveller
(en or pt). Also give what the traveller says of themselves: where they live
(homeCity), their children's ages, diets, and the budget they state. When
they ask you to forget what you know about them, the intent is forget.`

const classifyPrompt = `You are the trip planner's relevance check. The planner already knows the
trip details below. Call the classify tool: isRelevant is false if the
traveller's last message changes the destination, the dates or the number of
guests, or asks you to forget what you know about them, and true otherwise (follow-up questions, thanks, photo questions).`

const callToolsPrompt = `You are a friendly trip planner. Use the tools to answer the traveller's last
message: list-accommodations for places to stay, list-restaurants for places to
eat, both when they plan a trip without saying which; for a trip with legs,
search each leg with its own city and dates. For questions about their
own photos and albums: searchPhotosAcrossAlbums when they do not name an album;
getAlbumByName and then the album tools when they do; getUserAlbums to list
albums. Use the trip details below for tool arguments. After the tools answer,
reply with one or two short sentences in the traveller's language; the results
are shown to them as cards, so do not list them again.`

func todayLine(today time.Time) string { return "Today: " + today.Format(time.DateOnly) }

func tripLine(td *TripDetails) string {
	if td == nil {
		return ""
	}
	data, _ := json.Marshal(td)
	return "Trip details: " + string(data)
}

// system joins a prompt and its trailing fact lines.
func system(prompt string, lines ...string) string {
	var b strings.Builder
	b.WriteString(prompt)
	b.WriteString("\n")
	for _, l := range lines {
		if l != "" {
			b.WriteString("\n" + l)
		}
	}
	return b.String()
}

// extractSchema is the JSON Schema of the extract tool's arguments.
var extractSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"location":       map[string]any{"type": "string", "description": "Destination city, English name. Omit if not said."},
		"country":        map[string]any{"type": "string", "description": "Country of the destination, if known."},
		"startDate":      map[string]any{"type": "string", "description": "First day, YYYY-MM-DD. Omit if not said."},
		"endDate":        map[string]any{"type": "string", "description": "Last day, YYYY-MM-DD. Omit if not said."},
		"nights":         map[string]any{"type": "integer", "description": "Length of stay in nights, if given as a duration."},
		"numberOfGuests": map[string]any{"type": "integer", "description": "Number of people travelling. Omit if not said."},
		"intent":         map[string]any{"type": "string", "enum": []string{"accommodations", "restaurants", "trip", "photos", "other", "forget"}},
		"language":       map[string]any{"type": "string", "enum": locale.All},
		"legs": map[string]any{
			"type":        "array",
			"description": "The cities of a trip of several, in order. Omit for one city.",
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"location":  map[string]any{"type": "string", "description": "City, English name."},
					"country":   map[string]any{"type": "string"},
					"startDate": map[string]any{"type": "string", "description": "YYYY-MM-DD, if said."},
					"endDate":   map[string]any{"type": "string", "description": "YYYY-MM-DD, if said."},
					"nights":    map[string]any{"type": "integer", "description": "Nights in this city, if said."},
				},
				"required": []string{"location"},
			},
		},
		"homeCity":     map[string]any{"type": "string", "description": "The city the traveller lives in or leaves from, English name, if they said."},
		"homeCountry":  map[string]any{"type": "string", "description": "The country of homeCity."},
		"childrenAges": map[string]any{"type": "array", "items": map[string]any{"type": "integer"}, "description": "Ages of the children travelling, if said."},
		"diet":         map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Diets someone in the party keeps: vegetarian, vegan, gluten-free, lactose-free, halal, kosher."},
		"budget": map[string]any{
			"type":        "object",
			"description": "The most they said they pay for a stay, if they did.",
			"properties": map[string]any{
				"amount":   map[string]any{"type": "number"},
				"currency": map[string]any{"type": "string", "description": "ISO 4217 code."},
				"total":    map[string]any{"type": "boolean", "description": "For the whole stay rather than a night."},
			},
			"required": []string{"amount"},
		},
		"unsure": map[string]any{
			"type":        "array",
			"description": "Fields guessed from the last message rather than read: location, numberOfGuests.",
			"items":       map[string]any{"type": "string", "enum": []string{"location", "startDate", "endDate", "numberOfGuests"}},
		},
	},
	"required": []string{"intent", "language"},
}

// classifySchema is the JSON Schema of the classify tool's arguments.
var classifySchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"isRelevant": map[string]any{"type": "boolean", "description": "Whether the known trip details still hold."},
	},
	"required": []string{"isRelevant"},
}

// extractArgs are the extract tool's arguments.
type extractArgs struct {
	Location       string    `json:"location"`
	Country        string    `json:"country"`
	StartDate      string    `json:"startDate"`
	EndDate        string    `json:"endDate"`
	Nights         int       `json:"nights"`
	NumberOfGuests int       `json:"numberOfGuests"`
	Intent         Intent    `json:"intent"`
	Language       string    `json:"language"`
	Legs           []legArgs `json:"legs"`
	Unsure         []string  `json:"unsure"`
	// What the traveller said of themselves, for their profile.
	HomeCity     string   `json:"homeCity"`
	HomeCountry  string   `json:"homeCountry"`
	ChildrenAges []int    `json:"childrenAges"`
	Diet         []string `json:"diet"`
	Budget       *Budget  `json:"budget"`
}

// legArgs is one leg of a trip of several as the extract call gives it.
type legArgs struct {
	Location  string `json:"location"`
	Country   string `json:"country"`
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
	Nights    int    `json:"nights"`
}

// Replies the planner writes itself, by language.
var replies = map[string]map[string]string{
	locale.English: {
		"askLocation":    "Where would you like to go?",
		"endBeforeStart": "Your trip would end (%s) before it starts (%s). Which dates did you mean?",
		"pastDates":      "Those dates (%s) are in the past. When would you like to travel?",
		"tooManyGuests":  "%d guests is more than I can plan for (%d at most). How many people are travelling?",
		"tooLong":        "That would be %d nights (%s to %s); I can plan stays of up to %d nights. Which dates did you mean?",
		"tooFarAhead":    "%s is further ahead than I can plan (up to %d days from today). When would you like to travel?",
		"badDetails":     "I could not make sense of those trip details. Could you tell me the city, dates and number of guests again?",
		"noAnswer":       "Here is what I found.",
		"noTools":        "I can help you find places to stay, restaurants and your own travel photos. What would you like to do?",
		"repeat": "The results above still stand for your trip. Tell me what to change (the dates, the guests, " +
			"a price limit or a cuisine), or ask about your photos.",
		"assumed":          "I assumed %s; tell me if that's wrong.",
		"recalled":         "%s? I remembered that from before; tell me if it has changed.",
		"forgot":           "Done: I have forgotten what I knew about you, and I will not remember this conversation either.",
		"confirm":          "Just to check: %s?",
		"booking.booked":   "Booked: the booking card shows your reference.",
		"booking.declined": "All right, I did not book it.",
		"booking.expired":  "The confirmation came too late, so I did not book it. Press Book again to start over.",
		"booking.changed":  "That answer was for another booking, so I did not book anything. Press Book again to start over.",
		"booking.failed":   "I could not make that booking; the booking card says why.",
		"booking.unavailable": "That place is already booked for some of those nights, so nothing was booked. " +
			"Choose another place or other dates.",
	},
	locale.Portuguese: {
		"askLocation":    "Para onde você gostaria de ir?",
		"endBeforeStart": "A viagem terminaria (%s) antes de começar (%s). Quais datas você quis dizer?",
		"pastDates":      "Essas datas (%s) já passaram. Quando você gostaria de viajar?",
		"tooManyGuests":  "%d pessoas é mais do que consigo planejar (no máximo %d). Quantas pessoas vão viajar?",
		"tooLong":        "Seriam %d noites (de %s a %s); consigo planejar estadias de até %d noites. Quais datas você quis dizer?",
		"tooFarAhead":    "%s está mais longe do que consigo planejar (até %d dias a partir de hoje). Quando você gostaria de viajar?",
		"badDetails":     "Não consegui entender esses detalhes da viagem. Pode me dizer de novo a cidade, as datas e o número de pessoas?",
		"noAnswer":       "Aqui está o que encontrei.",
		"noTools":        "Posso ajudar a encontrar hospedagem, restaurantes e suas fotos de viagem. O que você gostaria de fazer?",
		"repeat": "Os resultados acima continuam valendo para sua viagem. Diga o que mudar (as datas, o número de pessoas, " +
			"um limite de preço ou uma cozinha) ou pergunte sobre suas fotos.",
		"assumed":          "Considerei %s; me diga se não for isso.",
		"recalled":         "%s? Lembrei da última vez; me diga se mudou.",
		"forgot":           "Pronto: esqueci o que sabia sobre você, e também não vou guardar esta conversa.",
		"confirm":          "Só para confirmar: %s?",
		"booking.booked":   "Reservado: o cartão da reserva mostra o código.",
		"booking.declined": "Tudo bem, não reservei.",
		"booking.expired":  "A confirmação chegou tarde demais, então não reservei. Toque em Reservar de novo para recomeçar.",
		"booking.changed":  "Essa resposta era de outra reserva, então não reservei nada. Toque em Reservar de novo para recomeçar.",
		"booking.failed":   "Não consegui fazer essa reserva; o cartão da reserva diz por quê.",
		"booking.unavailable": "Essa hospedagem já está reservada em algumas dessas noites, então nada foi reservado. " +
			"Escolha outra hospedagem ou outras datas.",
	},
}

// reply returns a planner-written reply in the traveller's language.
func reply(lang, key string, args ...any) string {
	m, ok := replies[lang]
	if !ok {
		m = replies[locale.Default]
	}
	return fmt.Sprintf(m[key], args...)
}
