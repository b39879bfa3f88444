package api

import (
	"net/http"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// operatorRoutes manage every user's API keys. They take a key with the
// operator role, acting as its own user.
func (s *API) operatorRoutes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Path: "/admin/users/:user/api-keys", Summary: "List a user's API keys (by user name or id), revoked ones too, newest first; operator keys only", Handler: s.listKeys, Response: []wire.APIKey{}},
		{Method: http.MethodPost, Path: "/admin/users/:user/api-keys", Summary: "Make an API key for a user; the key is in this answer only; operator keys only", Handler: s.createKey, Body: wire.APIKeyCreate{}, Response: wire.NewAPIKey{}, Status: http.StatusCreated},
		{Method: http.MethodPost, Path: "/admin/users/:user/api-keys/:key_id/revoke", Summary: "Revoke a user's API key and end the browser sessions opened with it, in every process at once; operator keys only", Handler: s.revokeKey, Response: wire.APIKey{}},
		{Method: http.MethodPost, Path: "/admin/users/:user/api-keys/:key_id/rotate", Summary: "Replace a user's API key with a new one of the same label and role, revoking the old one; operator keys only", Handler: s.rotateKey, Response: wire.NewAPIKey{}, Status: http.StatusCreated},
	}
}

// operatorOnly lets through requests made with an operator key, as its
// own user.
func (s *API) operatorOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if k, ok := c.Get(keyOfRequest).(accounts.Key); !ok || k.Role != accounts.RoleOperator {
			return errcode.New(errcode.Forbidden, "only an API key with the operator role may manage users' keys")
		}
		return next(c)
	}
}

// userParam is the user the :user parameter names, by id or by name.
func (s *API) userParam(c echo.Context) (accounts.User, error) {
	name := c.Param("user")
	if _, err := uuid.Parse(name); err == nil {
		return s.accounts.UserByID(httpx.Ctx(c), name)
	}
	return s.accounts.UserByName(httpx.Ctx(c), name)
}

func (s *API) listKeys(c echo.Context) error {
	u, err := s.userParam(c)
	if err != nil {
		return err
	}
	list, err := s.accounts.ListAPIKeys(httpx.Ctx(c), u.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromKeys(list))
}

func (s *API) createKey(c echo.Context) error {
	var in wire.APIKeyCreate
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	u, err := s.userParam(c)
	if err != nil {
		return err
	}
	secret, k, err := s.accounts.CreateAPIKey(httpx.Ctx(c), accounts.NewKey{UserID: u.ID, Label: in.Label, Role: accounts.Role(in.Role)})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, wire.NewAPIKey{Key: secret, APIKey: wire.FromKey(k)})
}

func (s *API) revokeKey(c echo.Context) error {
	u, err := s.userParam(c)
	if err != nil {
		return err
	}
	k, err := s.accounts.RevokeAPIKey(httpx.Ctx(c), u.ID, c.Param("key_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromKey(k))
}

func (s *API) rotateKey(c echo.Context) error {
	u, err := s.userParam(c)
	if err != nil {
		return err
	}
	secret, k, err := s.accounts.RotateAPIKey(httpx.Ctx(c), u.ID, c.Param("key_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, wire.NewAPIKey{Key: secret, APIKey: wire.FromKey(k)})
}
