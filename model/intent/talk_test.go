package intent

import "testing"

func TestReadTalk(t *testing.T) {
	tests := []struct {
		text string
		want Talk
	}{
		{"good evening!", Greeting},
		{"boa tarde", Greeting},
		{"e aí, beleza?", Greeting},
		{"how are you doing?", HowAreYou},
		{"tudo bom?", HowAreYou},
		{"como você está?", HowAreYou},
		{"are you human?", Identity},
		{"quem é você?", Identity},
		{"what's your name?", Identity},
		{"thx!", Thanks},
		{"haha ok", Laugh},
		{"rsrsrs", Laugh},
		{"who won the election?", Unrelated},
		{"quem ganhou a partida?", Unrelated},
		{"which laptop should I buy?", Unrelated},
		{"quanto é 20% de 50?", Unrelated},
		{"what's the weather in Rome?", Unrelated},
		// Trip requests are no talk, whatever they start with.
		{"hi! a hotel in Rome please", NoTalk},
		{"good morning, restaurants in Porto?", NoTalk},
		{"Lisbon in May", NoTalk},
	}
	for _, tt := range tests {
		if got := ReadTalk(tt.text); got != tt.want {
			t.Errorf("ReadTalk(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
