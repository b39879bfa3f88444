package mcpauth

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestMintVerify(t *testing.T) {
	secret := []byte("0123456789abcdef0123")
	now := time.Unix(1_700_000_000, 0)
	good, err := mintAt(secret, "user-1", now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	c, err := verifyAt(secret, good, now)
	if err != nil || c.UserID != "user-1" || !c.Expires.Equal(now.Add(time.Minute)) {
		t.Fatalf("verifying a good token = %+v, %v", c, err)
	}
	expired, _ := mintAt(secret, "user-1", now)
	other, _ := mintAt([]byte("another secret, long enough"), "user-1", now.Add(time.Minute))
	body, _, _ := cutLast(good, ".")
	parts := strings.Split(good, ".")
	forgedUser := Prefix + "dXNlci0y." + parts[2] + "." + parts[3]
	for _, tc := range []struct{ name, token string }{
		{"empty", ""},
		{"expired", expired},
		{"other secret", other},
		{"no signature", body},
		{"forged user", forgedUser},
		{"api key", "tg_abc"},
		{"tampered signature", good[:len(good)-1] + "A"},
	} {
		if _, err := verifyAt(secret, tc.token, now); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, err)
		}
	}
	if _, err := Mint([]byte("short"), "u", time.Minute); err == nil {
		t.Error("Mint accepted a short secret")
	}
	if _, err := Verify([]byte("short"), good); !errors.Is(err, ErrInvalid) {
		t.Error("Verify accepted a short secret")
	}
	if !IsToken(good) || IsToken("tg_abc") {
		t.Error("IsToken is wrong")
	}
}
