// Package toolname names the tools of tripgraph's own MCP server, in one
// place: the server registers them under these names, the planner picks
// the component that shows each result by them, and the offline model
// calls them by them. Adding a tool starts here (see All).
package toolname

// The tools of our MCP server.
const (
	ListAccommodations = "list-accommodations"
	GetAccommodation   = "get-accommodation"
	BookAccommodation  = "book-accommodation"
	ListRestaurants    = "list-restaurants"
	UserAlbums         = "getUserAlbums"
	AlbumByName        = "getAlbumByName"
	AlbumPhotos        = "getAlbumPhotos"
	PhotosByDate       = "getPhotosByDate"
	PhotosByLocation   = "getPhotosByLocation"
	SearchPhotos       = "searchPhotosAcrossAlbums"
	TripStats          = "getTripStats"
)

// All are every tool our MCP server serves; a test of the server holds
// the two lists together.
var All = []string{ListAccommodations, GetAccommodation, BookAccommodation, ListRestaurants,
	UserAlbums, AlbumByName, AlbumPhotos, PhotosByDate, PhotosByLocation, SearchPhotos, TripStats}
