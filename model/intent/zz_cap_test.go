package intent

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZCap(t *testing.T) {
	if os.Getenv("ZZCAP") == "" {
		t.Skip()
	}
	for _, s := range strings.Split(os.Getenv("ZZCAP"), "\n") {
		c, ok := ReadPriceCap(s)
		fmt.Printf("%-55s %v %+v budget=%q kind=%q\n", s, ok, c, StayBudget(s), StayKind(s))
	}
}
