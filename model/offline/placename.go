package offline

import (
	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// placeName is how a reply names the trip's city, given by its English
// name: its canonical name in the reply's language ("Lisboa", "Nova
// York" in Portuguese), never the traveller's spelling ("lisbia",
// "nova iorque").
func placeName(city, lang string) string {
	return gazetteer.CityName(city, lang)
}
