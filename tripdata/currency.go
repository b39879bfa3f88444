package tripdata

import "strings"

// perEuro is how many units of each currency a euro is worth, roughly:
// enough for the demo catalog's prices and to compare a traveller's price
// cap written in one currency with prices in another.
var perEuro = map[string]float64{
	"EUR": 1, "USD": 1.1, "GBP": 0.85, "BRL": 5.5, "JPY": 160, "CNY": 7.8, "INR": 90, "MXN": 19,
	"ARS": 950, "CAD": 1.5, "AUD": 1.65, "CHF": 0.95, "KRW": 1450, "TRY": 35, "ZAR": 20, "RUB": 100,
	"IDR": 17000, "THB": 38, "EGP": 52, "NGN": 1600, "COP": 4400,
}

// countryCurrency is the currency of a country's prices, where it is not
// the euro's or the US dollar's.
var countryCurrency = map[string]string{
	"US": "USD", "GB": "GBP", "BR": "BRL", "JP": "JPY", "CN": "CNY", "IN": "INR", "MX": "MXN", "AR": "ARS",
	"CA": "CAD", "AU": "AUD", "CH": "CHF", "KR": "KRW", "TR": "TRY", "ZA": "ZAR", "RU": "RUB", "ID": "IDR",
	"TH": "THB", "EG": "EGP", "NG": "NGN", "CO": "COP",
}

// euroCountries price in euros.
var euroCountries = map[string]bool{"PT": true, "ES": true, "FR": true, "IT": true, "DE": true, "NL": true, "BE": true,
	"AT": true, "IE": true, "GR": true, "FI": true, "SK": true, "SI": true, "LT": true, "LV": true, "EE": true,
	"LU": true, "MT": true, "CY": true, "HR": true}

// CurrencyOf is the ISO 4217 code of the currency prices are shown in for
// a country (ISO 3166-1 alpha-2): its own where the table has it, the
// euro in the euro area, else the US dollar.
func CurrencyOf(country string) string {
	country = strings.ToUpper(country)
	if euroCountries[country] {
		return "EUR"
	}
	if c, ok := countryCurrency[country]; ok {
		return c
	}
	return "USD"
}

// PerEuro is how many units of a currency a euro is worth, and whether
// the currency is known.
func PerEuro(code string) (float64, bool) {
	r, ok := perEuro[strings.ToUpper(code)]
	return r, ok
}

// Convert turns an amount in one currency into another, and reports
// whether both are known.
func Convert(amount float64, from, to string) (float64, bool) {
	f, ok1 := PerEuro(from)
	t, ok2 := PerEuro(to)
	if !ok1 || !ok2 {
		return 0, false
	}
	return amount / f * t, true
}
