package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/internal/wire"
)

func TestInternalErrorsAreLoggedNotShown(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/x", nil)
	secret := `ERROR: relation "checkpoints" does not exist (SQLSTATE 42P01) at /srv/store/checkpoints.go:42`
	WriteError(rec, req, log, fmt.Errorf("reading a thread: %w", errors.New(secret)))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", rec.Code)
	}
	var e wire.Error
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error != "INTERNAL" || e.Message != "internal error" {
		t.Fatalf("body %s", rec.Body)
	}
	if n := strings.Count(logs.String(), "SQLSTATE 42P01"); n != 1 {
		t.Fatalf("the cause is logged %d times, want once:\n%s", n, logs.String())
	}
	// A coded internal error's message is not shown either.
	rec = httptest.NewRecorder()
	WriteError(rec, req, log, errcode.New(errcode.Internal, "%s", secret))
	if strings.Contains(rec.Body.String(), "SQLSTATE") {
		t.Fatalf("internal text reaches the client: %s", rec.Body)
	}
}
