package suggest

// climateTable lists the destinations suggestions are drawn from: cities
// the catalog covers, each with the kinds of place it is and the mean
// daily high temperature of each month, January first, in °C:
//
//	English name|country|kinds|Jan Feb … Dec
//
// No dataset of climate normals is reachable from the project's package
// registries, so the temperatures are written by hand, rounded to whole
// degrees, from general knowledge of each city's published climate table
// (WMO standard normals where known). They are approximate: good enough
// to tell a warm month from a cold one, not a forecast. Kinds, as
// intent.PlaceKind names them: beach, island, ski (slopes in or near it,
// snowy in its four coldest months), mountain, lake, nature, city.
const climateTable = `Rio de Janeiro|BR|beach city|30 30 29 28 26 25 25 26 25 26 28 29
Salvador|BR|beach city|30 30 30 29 28 27 26 26 27 28 29 29
Fortaleza|BR|beach|31 31 30 30 30 30 30 30 31 31 31 31
Recife|BR|beach city|30 30 30 30 29 28 27 27 28 29 30 30
Natal|BR|beach|30 30 30 30 29 28 28 28 29 29 30 30
Maceió|BR|beach|30 30 30 29 28 27 26 26 27 28 29 30
Florianópolis|BR|beach nature island|28 29 28 26 23 21 20 21 21 23 25 27
Porto Seguro|BR|beach|30 30 30 29 28 27 26 26 27 28 29 30
Jericoacoara|BR|beach nature|31 31 31 31 31 31 31 32 32 32 32 32
Fernando de Noronha|BR|beach nature island|30 30 30 30 29 29 28 28 29 29 30 30
Porto de Galinhas|BR|beach|30 30 30 30 29 28 27 27 28 29 30 30
Búzios|BR|beach|30 31 30 28 27 26 25 25 25 26 27 29
Ubatuba|BR|beach nature|30 30 29 27 25 24 23 24 24 25 27 29
Ilhabela|BR|beach nature island|30 30 29 27 25 24 23 24 24 25 27 29
Paraty|BR|beach city|30 31 30 28 26 25 24 25 25 26 27 29
Guarujá|BR|beach|30 30 29 27 25 24 23 23 24 25 27 29
Balneário Camboriú|BR|beach|28 29 28 26 23 21 20 21 21 23 25 27
Gramado|BR|nature mountain|26 26 24 21 18 16 15 17 18 20 23 25
Campos do Jordão|BR|nature mountain|24 24 23 21 19 18 18 20 21 22 23 23
Bonito|BR|nature|33 33 32 30 27 26 27 29 31 32 32 33
Foz do Iguaçu|BR|nature|33 32 31 28 24 22 23 25 26 29 31 32
Ouro Preto|BR|city|26 27 26 25 23 22 22 23 24 25 25 25
Lisbon|PT|city beach|15 16 19 20 23 27 29 29 27 23 18 15
Porto|PT|city|14 15 17 18 20 23 25 26 24 21 17 15
Faro|PT|beach|16 17 19 21 23 27 29 30 27 23 19 17
Funchal|PT|beach nature island mountain|19 19 20 20 21 23 25 26 26 24 22 20
Barcelona|ES|city beach|14 15 17 19 22 26 28 29 26 22 17 14
Málaga|ES|beach|17 18 20 22 25 29 31 31 28 24 20 18
Palma|ES|beach island|15 15 17 20 23 28 31 31 28 24 19 16
Seville|ES|city|16 18 22 24 28 33 36 36 32 26 20 17
Santorini|GR|beach island|14 14 16 19 23 27 29 29 26 23 19 16
Mykonos|GR|beach island|14 14 16 19 23 27 28 28 26 22 18 15
Dubrovnik|HR|beach city|12 13 15 18 23 27 30 30 26 22 17 13
Nice|FR|beach city|13 14 16 18 22 25 28 28 25 21 17 14
Paris|FR|city|7 8 12 16 20 23 25 25 21 16 11 8
London|GB|city|8 9 12 15 18 21 23 23 20 16 11 9
Rome|IT|city|12 14 17 20 24 29 32 32 28 23 17 13
Prague|CZ|city|1 4 9 14 19 23 25 25 19 13 7 2
Innsbruck|AT|ski city mountain|3 5 11 15 20 23 25 24 20 15 8 3
Zermatt|CH|ski nature mountain|-1 0 3 6 11 15 18 18 14 9 3 0
Interlaken|CH|ski nature mountain lake|3 5 10 14 18 22 24 23 19 14 8 4
Reykjavik|IS|nature|3 3 4 6 10 12 14 14 11 7 4 3
Quebec City|CA|ski city|-8 -6 0 8 17 22 25 24 18 11 3 -4
Cancún|MX|beach|28 29 30 31 32 33 33 33 32 31 30 28
Punta Cana|DO|beach|28 28 29 29 30 31 31 31 31 31 30 29
Havana|CU|city beach|26 27 28 29 30 31 32 32 31 29 28 27
Miami|US|beach city|24 25 26 28 30 32 32 33 32 29 27 25
Honolulu|US|beach island|27 27 27 28 29 30 31 31 31 30 29 28
New York|US|city|4 6 10 17 22 27 30 29 25 19 12 7
Bali|ID|beach nature island|30 30 31 31 31 30 29 30 31 31 31 30
Phuket|TH|beach island|32 33 33 33 32 31 31 31 30 31 31 31
Tokyo|JP|city|10 11 14 19 23 26 30 31 27 22 17 12
Dubai|AE|city beach|24 25 29 33 38 40 41 41 39 35 30 26
Marrakesh|MA|city|18 20 23 25 29 33 37 37 32 27 22 19
Cape Town|ZA|beach city|26 27 25 23 20 18 18 18 19 21 24 25
Sydney|AU|beach city|26 26 25 23 20 18 17 19 21 23 24 25
Buenos Aires|AR|city|30 29 26 23 19 16 15 17 19 22 25 28
Bariloche|AR|ski nature mountain lake|22 22 19 14 10 7 6 8 11 14 18 20
Mendoza|AR|nature ski mountain|32 30 27 22 18 14 14 17 20 24 28 31
Santiago|CL|city ski|30 30 28 23 18 15 15 17 19 23 26 29
Cusco|PE|nature city mountain|19 19 19 20 20 20 20 20 21 21 21 20
Montevideo|UY|beach city|28 27 25 22 18 15 14 16 18 21 24 27
`
