package mcpserver

import (
	"context"
	"strings"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpauth"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// APIKeys finds the user of an API key; *store.Store is one.
type APIKeys interface {
	UserByAPIKey(ctx context.Context, key string) (accounts.User, accounts.Key, error)
}

// Authenticator returns the check NewHTTPHandler and the media routes use
// for bearer credentials: an mcpauth token signed with secret (when secret
// is set), or a user's API key.
func Authenticator(keys APIKeys, secret []byte) func(ctx context.Context, bearer string) (string, error) {
	return func(ctx context.Context, bearer string) (string, error) {
		switch {
		case mcpauth.IsToken(bearer):
			if len(secret) == 0 {
				return "", errcode.New(errcode.Forbidden, "tokens are not accepted: MCP_SECRET is not set")
			}
			c, err := mcpauth.Verify(secret, bearer)
			if err != nil {
				return "", errcode.Wrap(errcode.Forbidden, err, "invalid or expired token")
			}
			return c.UserID, nil
		case strings.HasPrefix(bearer, accounts.APIKeyPrefix):
			u, _, err := keys.UserByAPIKey(ctx, bearer)
			if err != nil {
				return "", err
			}
			return u.ID, nil
		}
		return "", errcode.New(errcode.Forbidden, "unknown kind of credential")
	}
}
