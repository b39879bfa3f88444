// Package toolname names the tools of tripgraph's own MCP server that
// other code calls by name: the server registers them under these names,
// and the offline model and the booking flow call them by them. A tool no
// other code calls needs no name here: it is found from its registration,
// which also names the card that shows its results (package card).
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
