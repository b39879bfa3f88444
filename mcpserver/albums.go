package mcpserver

import (
	"context"
	"slices"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/toolname"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/tripdata"
)

// AlbumOut is an album as the album tools return it.
type AlbumOut struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	CoverURL    string   `json:"coverUrl" jsonschema:"signed, short-lived URL of the album's first photo (thumbnail); empty for an empty album"`
	StartDate   string   `json:"startDate" jsonschema:"YYYY-MM-DD of the first photo; empty for an empty album"`
	EndDate     string   `json:"endDate" jsonschema:"YYYY-MM-DD of the last photo; empty for an empty album"`
	PhotoCount  int      `json:"photoCount"`
	Locations   []string `json:"locations" jsonschema:"the album's most photographed places, most frequent first"`
}

// PhotoOut is a photo as the album tools return it.
type PhotoOut struct {
	ID           string   `json:"id"`
	AlbumID      string   `json:"albumId"`
	AlbumName    string   `json:"albumName,omitempty"`
	URL          string   `json:"url" jsonschema:"signed, short-lived URL of the full image"`
	ThumbnailURL string   `json:"thumbnailUrl"`
	Description  string   `json:"description"`
	LocationName string   `json:"locationName"`
	TakenAt      string   `json:"takenAt" jsonschema:"YYYY-MM-DD"`
	Lat          *float64 `json:"lat"`
	Lng          *float64 `json:"lng"`
}

// GetUserAlbumsIn is the input of getUserAlbums.
type GetUserAlbumsIn struct {
	Caller
	Limit int `json:"limit,omitempty" jsonschema:"how many albums at most; default 50, at most 200"`
}

// AlbumsOut is the output of getUserAlbums and getAlbumByName.
type AlbumsOut struct {
	Albums []AlbumOut `json:"albums"`
}

// GetAlbumByNameIn is the input of getAlbumByName.
type GetAlbumByNameIn struct {
	Caller
	Name  string `json:"name" jsonschema:"words or the start of words of the album's name, its description or its photos' places, any case, accents optional, in any language: 'Lisbon' also finds 'Lisboa 2024', 'rio' finds 'Rio de Janeiro' but not 'aniversário' (1 to 200 characters)"`
	Limit int    `json:"limit,omitempty" jsonschema:"default 50, at most 200"`
}

// GetAlbumPhotosIn is the input of getAlbumPhotos.
type GetAlbumPhotosIn struct {
	Caller
	AlbumID string `json:"albumId" jsonschema:"the album's id, from getUserAlbums or getAlbumByName"`
	Limit   int    `json:"limit,omitempty" jsonschema:"default 50, at most 200"`
	Offset  int    `json:"offset,omitempty" jsonschema:"photos to skip, for paging"`
}

// AlbumPhotosOut is the output of getAlbumPhotos.
type AlbumPhotosOut struct {
	AlbumID string     `json:"albumId"`
	Photos  []PhotoOut `json:"photos"`
	Total   int        `json:"total" jsonschema:"how many photos the album has in all"`
}

// GetPhotosByDateIn is the input of getPhotosByDate.
type GetPhotosByDateIn struct {
	Caller
	AlbumID string `json:"albumId" jsonschema:"the album's id"`
	Date    string `json:"date" jsonschema:"the day, as YYYY-MM-DD"`
}

// PhotosByDateOut is the output of getPhotosByDate.
type PhotosByDateOut struct {
	AlbumID string     `json:"albumId"`
	Date    string     `json:"date"`
	Photos  []PhotoOut `json:"photos"`
}

// GetPhotosByLocationIn is the input of getPhotosByLocation.
type GetPhotosByLocationIn struct {
	Caller
	AlbumID string `json:"albumId" jsonschema:"the album's id"`
	Query   string `json:"query" jsonschema:"a word or phrase to find in the photos' location names and descriptions, matched at the start of a word: a place, a person, an event (1 to 200 characters)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"default 50, at most 200"`
}

// PhotosByLocationOut is the output of getPhotosByLocation.
type PhotosByLocationOut struct {
	AlbumID string     `json:"albumId"`
	Query   string     `json:"query"`
	Photos  []PhotoOut `json:"photos"`
}

// SearchPhotosIn is the input of searchPhotosAcrossAlbums.
type SearchPhotosIn struct {
	Caller
	Query string `json:"query" jsonschema:"a word or phrase to find in location names and descriptions, matched at the start of a word, e.g. 'aniversário da Vivi', 'praia', 'Belém' (1 to 200 characters)"`
	Limit int    `json:"limit,omitempty" jsonschema:"default 50, at most 200"`
}

// SearchPhotosOut is the output of searchPhotosAcrossAlbums.
type SearchPhotosOut struct {
	Query  string     `json:"query"`
	Photos []PhotoOut `json:"photos" jsonschema:"sorted newest first, each with its albumName; when totalIsLowerBound is false they are the newest of all the matches, when it is true the newest of the first 1000 matches found, in no order of date, so newer matches may be missing"`
	Total  int        `json:"total" jsonschema:"how many photos match in all, counted up to 1000"`
	// The search reads at most 1000 matches (tripdata.MaxSearchCount), so
	// that a common term costs no more than a rarer one.
	TotalIsLowerBound bool `json:"totalIsLowerBound" jsonschema:"true when more than 1000 photos match: total is then 1000, a lower bound, and photos are not necessarily the newest matches (a more specific query finds those)"`
}

// GetTripStatsIn is the input of getTripStats.
type GetTripStatsIn struct {
	Caller
	AlbumID string `json:"albumId" jsonschema:"the album's id"`
}

// LocationCountOut is how many photos of an album were taken at a place.
type LocationCountOut struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// TripStatsOut is the output of getTripStats.
type TripStatsOut struct {
	AlbumID     string             `json:"albumId"`
	Name        string             `json:"name"`
	TotalPhotos int                `json:"totalPhotos"`
	Locations   []LocationCountOut `json:"locations"`
	StartDate   string             `json:"startDate"`
	EndDate     string             `json:"endDate"`
	Days        int                `json:"days" jsonschema:"days from the first photo to the last, both included; 0 for an empty album"`
}

// readOnly is a tool that changes nothing, whose results the card named
// shows.
func readOnly(name, shownBy, title, description string) *mcp.Tool {
	return &mcp.Tool{Name: name, Title: title, Description: description, Meta: cardMeta(shownBy),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}}
}

// cardMeta is the metadata of a tool whose results the card named shows.
func cardMeta(name string) mcp.Meta { return mcp.Meta{card.Meta: name} }

func (t *tools) addAlbumTools(s *mcp.Server) {
	addTool(s, t, readOnly(toolname.UserAlbums, card.Albums, "List the user's photo albums",
		"Lists the user's travel photo albums, newest trip first, with cover, dates, photo count and main places. "+
			"Use when: the user asks what albums or trips they have, or you need an albumId and do not know the album's name. "+
			"Don't use when: the user names an album (use getAlbumByName) or wants photos of something without naming an album (use searchPhotosAcrossAlbums)."),
		t.getUserAlbums)
	addTool(s, t, readOnly(toolname.AlbumByName, card.Albums, "Find albums by name",
		"Finds the user's albums whose name, description or photo places contain the given text at the start of a word (case- and accent-insensitive; 'lisb' finds 'Lisboa', 'rio' finds 'Rio de Janeiro' but not 'aniversário'). "+
			"A city or country matches under any of its names: 'Lisbon' finds 'Lisboa 2024', 'Japão' finds 'Japan 2025'. "+
			"Use when: the user mentions an album or trip by name ('my Lisbon album', 'viagem a Paris') and you need its albumId. "+
			"Don't use when: the user asks for photos of a thing, person or place without naming an album (use searchPhotosAcrossAlbums)."),
		t.getAlbumByName)
	addTool(s, t, readOnly(toolname.AlbumPhotos, card.Photos, "List an album's photos",
		"Lists the photos of one album in the order they were taken, a page at a time (limit, offset). "+
			"Use when: you have an albumId and the user wants to see that album. "+
			"Don't use when: the user wants photos of one day (getPhotosByDate) or of a place or event (getPhotosByLocation, or searchPhotosAcrossAlbums without an album)."),
		t.getAlbumPhotos)
	addTool(s, t, readOnly(toolname.PhotosByDate, card.Photos, "Photos of an album taken on a day",
		"Lists the photos of one album taken on one day; date is YYYY-MM-DD. "+
			"Use when: you have an albumId and the user asks about a specific day of the trip. "+
			"Don't use when: you have no albumId (find it first with getAlbumByName or getUserAlbums)."),
		t.getPhotosByDate)
	addTool(s, t, readOnly(toolname.PhotosByLocation, card.Photos, "Search one album's photos",
		"Finds photos in ONE album (albumId required) whose location name or description contains the query at the start of a word (case- and accent-insensitive: 'praia' finds 'Praia do Forte' and 'praias', 'rio' finds 'Rio Sena' but not 'aniversário'). "+
			"Descriptions are rich (people, events, moments) and match even when the location name is empty. "+
			"Returns up to limit photos, newest first; when more than 1000 of the album's photos match, they are the newest of the first 1000 found: refine the query to see others. "+
			"Use when: you already have the albumId (from the conversation or getAlbumByName) and the user asks for a place, person or moment in it. "+
			"Don't use when: the user does not mention a specific album (use searchPhotosAcrossAlbums)."),
		t.getPhotosByLocation)
	addTool(s, t, readOnly(toolname.SearchPhotos, card.Photos, "Search photos in all albums",
		"Finds photos in ALL of the user's albums (no albumId needed) whose location name or description contains the query at the start of a word (case- and accent-insensitive: 'aniversario' finds 'aniversário', 'praia' finds 'Praia do Forte' and 'praias', 'rio' finds 'Rio de Janeiro' but not 'aniversário'). "+
			"Returns up to limit photos, newest first, and how many match. When more than 1000 match (totalIsLowerBound), it returns the newest of the first 1000 found, not necessarily the newest overall: refine the query to see those. "+
			"Use when: the user asks for photos without naming an album ('show me Vivi's birthday photos', 'fotos da praia'); prefer it to asking which album. "+
			"Don't use when: the user names a specific album (use getPhotosByLocation with its albumId)."),
		t.searchPhotosAcrossAlbums)
	addTool(s, t, readOnly(toolname.TripStats, card.TripStats, "Statistics of an album's trip",
		"Sums up one album: total photos, photos per place, first and last day and number of days. "+
			"Use when: the user asks how long a trip was, where they went most, or how many photos they took. "+
			"Don't use when: the user wants to see photos (use the photo tools)."),
		t.getTripStats)
}

func (t *tools) album(a tripdata.Album) AlbumOut {
	out := AlbumOut{ID: a.ID, Name: a.Name, Description: a.Description, StartDate: dateString(a.StartDate),
		EndDate: dateString(a.EndDate), PhotoCount: a.PhotoCount, Locations: a.Locations}
	if out.Locations == nil {
		out.Locations = []string{}
	}
	if a.CoverID != "" {
		out.CoverURL = t.cfg.URLs.PhotoURL(a.CoverID, a.UserID, "thumb")
	}
	return out
}

func (t *tools) albums(list []tripdata.Album) AlbumsOut {
	out := AlbumsOut{Albums: make([]AlbumOut, 0, len(list))}
	for _, a := range list {
		out.Albums = append(out.Albums, t.album(a))
	}
	return out
}

func (t *tools) photos(list []tripdata.Photo, withAlbum bool) []PhotoOut {
	out := make([]PhotoOut, 0, len(list))
	for _, p := range list {
		o := PhotoOut{ID: p.ID, AlbumID: p.AlbumID, URL: t.cfg.URLs.PhotoURL(p.ID, p.UserID, "full"),
			ThumbnailURL: t.cfg.URLs.PhotoURL(p.ID, p.UserID, "thumb"), Description: p.Description,
			LocationName: p.LocationName, TakenAt: dateString(p.TakenAt), Lat: p.Lat, Lng: p.Lng}
		if withAlbum {
			o.AlbumName = p.AlbumName
		}
		out = append(out, o)
	}
	return out
}

func (t *tools) getUserAlbums(ctx context.Context, user string, in GetUserAlbumsIn) (AlbumsOut, error) {
	n, err := limit(in.Limit)
	if err != nil {
		return AlbumsOut{}, err
	}
	list, err := t.cfg.Backend.UserAlbums(ctx, user, n)
	if err != nil {
		return AlbumsOut{}, err
	}
	return t.albums(list), nil
}

func (t *tools) getAlbumByName(ctx context.Context, user string, in GetAlbumByNameIn) (AlbumsOut, error) {
	name, err := term("name", in.Name)
	if err != nil {
		return AlbumsOut{}, err
	}
	n, err := limit(in.Limit)
	if err != nil {
		return AlbumsOut{}, err
	}
	list, err := t.cfg.Backend.AlbumsMatching(ctx, user, t.nameVariants(name), n)
	if err != nil {
		return AlbumsOut{}, err
	}
	return t.albums(list), nil
}

func (t *tools) getAlbumPhotos(ctx context.Context, user string, in GetAlbumPhotosIn) (AlbumPhotosOut, error) {
	n, err := limit(in.Limit)
	if err != nil {
		return AlbumPhotosOut{}, err
	}
	skip, err := offset(in.Offset)
	if err != nil {
		return AlbumPhotosOut{}, err
	}
	list, total, err := t.cfg.Backend.AlbumPhotos(ctx, user, in.AlbumID, n, skip)
	if err != nil {
		return AlbumPhotosOut{}, err
	}
	return AlbumPhotosOut{AlbumID: in.AlbumID, Photos: t.photos(list, false), Total: total}, nil
}

func (t *tools) getPhotosByDate(ctx context.Context, user string, in GetPhotosByDateIn) (PhotosByDateOut, error) {
	day, err := date("date", in.Date)
	if err != nil {
		return PhotosByDateOut{}, err
	}
	list, err := t.cfg.Backend.PhotosByDate(ctx, user, in.AlbumID, day, MaxLimit)
	if err != nil {
		return PhotosByDateOut{}, err
	}
	return PhotosByDateOut{AlbumID: in.AlbumID, Date: in.Date, Photos: t.photos(list, false)}, nil
}

func (t *tools) getPhotosByLocation(ctx context.Context, user string, in GetPhotosByLocationIn) (PhotosByLocationOut, error) {
	q, err := term("query", in.Query)
	if err != nil {
		return PhotosByLocationOut{}, err
	}
	n, err := limit(in.Limit)
	if err != nil {
		return PhotosByLocationOut{}, err
	}
	if in.AlbumID == "" {
		return PhotosByLocationOut{}, badRequest("albumId is required; to search every album use searchPhotosAcrossAlbums")
	}
	r, err := t.cfg.Backend.SearchPhotosPage(ctx, tripdata.PhotoSearch{UserID: user, AlbumID: in.AlbumID, Term: q, Limit: n})
	if err != nil {
		return PhotosByLocationOut{}, err
	}
	return PhotosByLocationOut{AlbumID: in.AlbumID, Query: q, Photos: t.photos(r.Photos, false)}, nil
}

func (t *tools) searchPhotosAcrossAlbums(ctx context.Context, user string, in SearchPhotosIn) (SearchPhotosOut, error) {
	q, err := term("query", in.Query)
	if err != nil {
		return SearchPhotosOut{}, err
	}
	n, err := limit(in.Limit)
	if err != nil {
		return SearchPhotosOut{}, err
	}
	r, err := t.cfg.Backend.SearchPhotosPage(ctx, tripdata.PhotoSearch{UserID: user, Term: q, Limit: n})
	if err != nil {
		return SearchPhotosOut{}, err
	}
	return SearchPhotosOut{Query: q, Photos: t.photos(r.Photos, true), Total: r.Total, TotalIsLowerBound: r.More}, nil
}

func (t *tools) getTripStats(ctx context.Context, user string, in GetTripStatsIn) (TripStatsOut, error) {
	st, err := t.cfg.Backend.AlbumStats(ctx, user, in.AlbumID)
	if err != nil {
		return TripStatsOut{}, err
	}
	out := TripStatsOut{AlbumID: st.AlbumID, Name: st.Name, TotalPhotos: st.TotalPhotos,
		Locations: make([]LocationCountOut, 0, len(st.Locations)),
		StartDate: dateString(st.StartDate), EndDate: dateString(st.EndDate)}
	for _, l := range st.Locations {
		out.Locations = append(out.Locations, LocationCountOut(l))
	}
	if !st.StartDate.IsZero() {
		out.Days = int(st.EndDate.Sub(st.StartDate).Hours()/24) + 1
	}
	return out, nil
}

// nameVariants is an album search term under each name of the place it
// names: "Lisbon 2024" is also "Lisboa 2024", "Japão" is also "Japan".
func (t *tools) nameVariants(term string) []string {
	variants := []string{term}
	p, ok := t.cfg.Resolve(term)
	if !ok || p.Start < 0 || p.End > len(term) || p.Start >= p.End {
		return variants
	}
	for _, n := range p.Names {
		v := term[:p.Start] + n + term[p.End:]
		if !slices.Contains(variants, v) {
			variants = append(variants, v)
		}
	}
	return variants
}
