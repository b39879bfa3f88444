package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// An operator key lists, makes, revokes and rotates any user's keys; a
// revoked or rotated key is refused at once; other keys may not.
func TestOperatorManagesKeys(t *testing.T) {
	h := apptest.New(t)
	ops, err := h.Accounts.EnsureUser(t.Context(), "ops")
	if err != nil {
		t.Fatal(err)
	}
	operator, _, err := h.Accounts.CreateAPIKey(t.Context(), accounts.NewKey{UserID: ops.ID, Role: accounts.RoleOperator})
	if err != nil {
		t.Fatal(err)
	}
	base := "/admin/users/" + h.Alice.Name + "/api-keys"

	var made wire.NewAPIKey
	h.Must(http.StatusCreated, http.MethodPost, base, operator, `{"label":"app","role":"backend"}`).Decode(t, &made)
	if !strings.HasPrefix(made.Key, accounts.APIKeyPrefix) || made.Role != "backend" || made.UserID != h.Alice.ID || made.RevokedAt != nil {
		t.Fatalf("made %+v", made)
	}
	h.Must(http.StatusOK, http.MethodPost, "/threads/search", made.Key, "")

	var list []wire.APIKey
	h.Must(http.StatusOK, http.MethodGet, "/admin/users/"+h.Alice.ID+"/api-keys", operator, "").Decode(t, &list)
	if len(list) != 2 || list[0].ID != made.ID || strings.Contains(string(h.Do(http.MethodGet, base, operator, "").Body), made.Key) {
		t.Fatalf("listed %+v (by id), and the key must never be shown again", list)
	}

	var rotated wire.NewAPIKey
	h.Must(http.StatusCreated, http.MethodPost, base+"/"+made.ID+"/rotate", operator, "").Decode(t, &rotated)
	if rotated.Key == made.Key || rotated.Label != "app" || rotated.Role != "backend" {
		t.Fatalf("rotated %+v", rotated)
	}
	h.Must(http.StatusUnauthorized, http.MethodPost, "/threads/search", made.Key, "")
	h.Must(http.StatusOK, http.MethodPost, "/threads/search", rotated.Key, "")

	var revoked wire.APIKey
	h.Must(http.StatusOK, http.MethodPost, base+"/"+rotated.ID+"/revoke", operator, "").Decode(t, &revoked)
	if revoked.RevokedAt == nil {
		t.Fatalf("revoked %+v", revoked)
	}
	h.Must(http.StatusUnauthorized, http.MethodPost, "/threads/search", rotated.Key, "")
	h.Must(http.StatusNotFound, http.MethodPost, base+"/"+rotated.ID+"/revoke", operator, "")
	h.Must(http.StatusNotFound, http.MethodPost, "/admin/users/"+h.Bob.Name+"/api-keys/"+list[1].ID+"/revoke", operator, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/admin/users/nobody/api-keys", operator, "")
	h.Must(http.StatusBadRequest, http.MethodPost, base, operator, `{"role":"root"}`)
	h.Must(http.StatusBadRequest, http.MethodPost, base+"/not-an-id/revoke", operator, "")

	// Neither a user's key nor a backend key manages keys, even their own.
	h.Must(http.StatusForbidden, http.MethodGet, base, h.AliceKey, "")
	h.Must(http.StatusForbidden, http.MethodPost, "/admin/users/"+h.Bob.Name+"/api-keys", h.AliceKey, `{}`)
}
