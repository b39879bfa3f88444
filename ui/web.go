package ui

// LanguageSwitch is the form that changes the interface language: it
// posts lang ("en" or "pt"), next (the page to come back to) and the CSRF
// token to Action.
type LanguageSwitch struct {
	Action    string
	Next      string
	CSRFToken string
}

// LoginPage is the sign-in page: an API key, or a name to sign up with.
type LoginPage struct {
	AssetsURL string
	LoginURL  string // receives api_key and next
	SignupURL string // receives name and next
	Next      string // where to go once signed in
	// Problem is the catalog key of what went wrong with the last
	// attempt ("login.bad", "signup.taken", "signup.name"), or "".
	Problem  string
	Language LanguageSwitch
}

// KeyPage shows a new account's API key, once.
type KeyPage struct {
	AssetsURL   string
	Name        string
	Key         string
	ContinueURL string
}

// ErrorPage is a page that could not be shown: the error code says what
// happened, and the page says what to do next.
type ErrorPage struct {
	AssetsURL string
	Code      string
	HomeURL   string
}
