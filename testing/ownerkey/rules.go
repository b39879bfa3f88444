package ownerkey

// Keys are the tables of users' data and, for each, the columns that name
// its owner: the owner's id, or a thread's (a thread has one owner for
// life). A statement on one of these tables must compare one of them with
// a value it is given, or insert it.
var Keys = map[string][]string{
	"users":              {"id"},
	"api_keys":           {"user_id"},
	"user_identities":    {"user_id"},
	"web_sessions":       {"user_id"},
	"login_links":        {"user_id"},
	"threads":            {"owner_id", "id"},
	"checkpoints":        {"owner_id", "thread_id"},
	"runs":               {"owner_id", "thread_id"},
	"run_events":         {"owner_id", "thread_id"},
	"assistants":         {"owner_id"},
	"assistant_versions": {"owner_id"},
	"crons":              {"user_id", "thread_id"},
	"store_items":        {"user_id"},
	"tool_outputs":       {"user_id"},
	"mcp_servers":        {"user_id"},
	"user_settings":      {"user_id"},
	"albums":             {"user_id"},
	"photos":             {"user_id"},
	"bookings":           {"user_id"},
}

// Reference tables are read by every user and owned by none: the catalog
// of places. A sharded deployment keeps a copy of each on every node.
var Reference = []string{"catalog_cities", "accommodations", "restaurants"}

// Exceptions are the statements that reach rows of many owners, or find
// the owner from something else, on purpose. Each carries
// /* any owner: NAME */ in its text, and NAME must be listed here with
// the reason.
var Exceptions = map[string]string{
	"claim":       "the run queue's claim takes the next pending run of whichever owner comes next in the fair order",
	"reclaim":     "the sweep for expired leases looks at the running runs of every owner",
	"cron poll":   "cron polling takes the due crons of every owner",
	"retention":   "retention sweeps delete what expired, whoever owns it",
	"credential":  "a credential (key, session or login link hash, an identity, a user's name) is how the owner is found",
	"queue depth": "the run queue's metrics count every owner's runs",
	"media":       "a photo's file is found by its id, and its owner checked on the row read",
	"booking":     "a place is booked at most once for any night, whoever booked it",
}
