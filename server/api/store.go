package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store/items"
)

// The long-term store (/store/...), as LangGraph's clients call it: one
// user's items, through the key's tenant.

// putItem stores an item, or replaces the one with its namespace and key.
// In the planner's namespace, only what the planner would write there
// (nodes.CheckStoreWrite): its profile page and runs read it back.
func (s *API) putItem(c echo.Context) error {
	var in wire.StorePut
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if err := nodes.CheckStoreWrite(in.Namespace, in.Key, in.Value); err != nil {
		return err
	}
	put := items.PutItem{Namespace: in.Namespace, Key: in.Key, Value: in.Value}
	if in.TTL != nil {
		put.TTL = time.Duration(*in.TTL * float64(time.Minute))
	}
	var err error
	if put.Index, put.NoIndex, err = indexOf(in.Index); err != nil {
		return err
	}
	if err := tenantOf(c).Items.Put(httpx.Ctx(c), put); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// indexOf reads a put's index member: null (every string), false (none) or
// a list of field paths.
func indexOf(raw json.RawMessage) (paths []string, none bool, err error) {
	if len(httpx.Object(raw)) == 0 {
		return nil, false, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil && !b {
		return nil, true, nil
	}
	if json.Unmarshal(raw, &paths) != nil {
		return nil, false, httpx.InvalidField("index", "must be null, false or a list of field paths")
	}
	return paths, false, nil
}

// getItem answers with one item, or null when there is none: LangGraph's
// clients read null as "not found", and throw on a 404.
func (s *API) getItem(c echo.Context) error {
	ns := []string{}
	if v := c.QueryParam("namespace"); v != "" {
		ns = strings.Split(v, ".")
	}
	refresh := c.QueryParam("refresh_ttl") != "false" && c.QueryParam("refresh_ttl") != "0"
	it, ok, err := tenantOf(c).Items.Get(httpx.Ctx(c), ns, c.QueryParam("key"), refresh)
	if err != nil {
		return err
	}
	if !ok {
		return c.JSON(http.StatusOK, nil)
	}
	return c.JSON(http.StatusOK, wire.FromItem(it))
}

// deleteItem removes an item; a missing one is no error.
func (s *API) deleteItem(c echo.Context) error {
	var in wire.StoreDelete
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if err := tenantOf(c).Items.Delete(httpx.Ctx(c), in.Namespace, in.Key); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// searchItems finds items under a namespace prefix, by filter and query.
func (s *API) searchItems(c echo.Context) error {
	var in wire.StoreSearch
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	found, err := tenantOf(c).Items.Search(httpx.Ctx(c), items.Query{Prefix: in.NamespacePrefix, Filter: in.Filter,
		Text: in.Query, Limit: in.Limit, Offset: in.Offset, Refresh: in.RefreshTTL == nil || *in.RefreshTTL})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.StoreSearchResult{Items: wire.FromItems(found)})
}

// listNamespaces lists the namespaces that hold items.
func (s *API) listNamespaces(c echo.Context) error {
	var in wire.StoreNamespaces
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	q := items.NamespaceQuery{Prefix: in.Prefix, Suffix: in.Suffix, Limit: in.Limit, Offset: in.Offset}
	if in.MaxDepth != nil {
		q.MaxDepth = *in.MaxDepth
	}
	list, err := tenantOf(c).Items.Namespaces(httpx.Ctx(c), q)
	if err != nil {
		return err
	}
	if list == nil {
		list = [][]string{}
	}
	return c.JSON(http.StatusOK, wire.StoreNamespaceList{Namespaces: list})
}
