package web

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/ui"
)

// profileURL is the page of what the planner remembers of the traveller.
const profileURL = "/app/profile"

// profilePage shows what the planner remembers of the traveller and their
// consent to it, in a form to correct it.
func (s *App) profilePage(c echo.Context) error {
	m := tenantOf(c).Memory
	remember, err := m.Consent(httpx.Ctx(c))
	if err != nil {
		return err
	}
	p, err := m.Profile(httpx.Ctx(c))
	if err != nil {
		return err
	}
	return render(c, s.pageContext(c), http.StatusOK, ui.Profile(ui.ProfileView{AssetsURL: assetsURL, SaveURL: profileURL,
		ForgetURL: profileURL + "/forget", BackURL: "/app", CSRFToken: s.csrfToken(c), Remember: remember, Profile: p,
		Saved: c.QueryParam("saved") != "", Forgotten: c.QueryParam("forgotten") != ""}))
}

// saveProfile records the consent and the profile as the form sends them.
// Withdrawing consent forgets the profile.
func (s *App) saveProfile(c echo.Context) error {
	p, err := profileOf(c)
	if err != nil {
		return err
	}
	m, ctx := tenantOf(c).Memory, httpx.Ctx(c)
	remember := c.FormValue("remember") == "true"
	if err := m.SetConsent(ctx, remember); err != nil {
		return err
	}
	if remember {
		if err := m.Save(ctx, p); err != nil {
			return err
		}
	}
	return c.Redirect(http.StatusSeeOther, profileURL+"?saved=1")
}

// forgetProfile deletes what is remembered; the consent stays.
func (s *App) forgetProfile(c echo.Context) error {
	if err := tenantOf(c).Memory.Forget(httpx.Ctx(c)); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, profileURL+"?forgotten=1")
}

// profileOf reads the profile form, refusing values the planner could not
// use (nodes.Profile.Check) and text that is not what the field asks for.
func profileOf(c echo.Context) (nodes.Profile, error) {
	field := func(name string) string { return strings.TrimSpace(c.FormValue(name)) }
	p := nodes.Profile{HomeCity: field("home_city"), HomeCountry: field("home_country"),
		Currency: strings.ToUpper(field("currency")), Language: field("language")}
	bad := func(what string) (nodes.Profile, error) {
		return nodes.Profile{}, errcode.New(errcode.BadRequest, "%s is not valid", what)
	}
	if v := field("party_size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return bad("the party")
		}
		p.PartySize = n
	}
	for _, a := range splitList(field("children_ages")) {
		n, err := strconv.Atoi(a)
		if err != nil {
			return bad("a child's age")
		}
		p.ChildrenAges = append(p.ChildrenAges, n)
	}
	for _, d := range splitList(field("diet")) {
		p.Diet = append(p.Diet, strings.ToLower(d))
	}
	if v := field("budget"); v != "" {
		amount, ok := decimal(v)
		if !ok {
			return bad("the budget")
		}
		p.Budget = &nodes.Budget{Amount: amount, Currency: strings.ToUpper(field("budget_currency"))}
	}
	return p, p.Check()
}

// decimal reads a form's number, which may have decimals: a finite one
// only, as a person writes it, never NaN or an infinity (which
// strconv.ParseFloat reads, and JSON cannot hold).
func decimal(v string) (float64, bool) {
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// splitList splits "5, 8" or "vegetarian; vegan" into its items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
