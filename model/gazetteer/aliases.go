package gazetteer

import "strings"

// aliasTable lists cities by their GeoNames name and country, the English
// name shown for them when it differs ("-" when it does not), then other
// names people type: "GeoName|CC|English|alias|alias…". Names are matched
// folded, so "Sao Paulo" needs no alias; exonyms and short forms do.
const aliasTable = `Lisbon|PT|-|Lisboa|Lx|Alfama|Chiado|Bairro Alto|Baixa Pombalina
Porto|PT|-|Oporto
New York City|US|New York|New York|Nova York|Nova Iorque|NYC|Manhattan|NY
London|GB|-|Londres|Notting Hill|Covent Garden|Camden Town|Shoreditch
Munich|DE|-|Munique|München|Muenchen
Köln|DE|Cologne|Cologne|Colônia|Colonia
Berlin|DE|-|Berlim
Hamburg|DE|-|Hamburgo
Frankfurt am Main|DE|Frankfurt|Frankfurt|Francoforte
Nürnberg|DE|Nuremberg|Nuremberg|Nuremberga
Dresden|DE|-|Dresda
Rome|IT|-|Roma|Trastevere
Florence|IT|-|Florença|Firenze
Venice|IT|-|Veneza|Venezia
Milan|IT|-|Milão|Milano
Naples|IT|-|Nápoles|Napoli|Napoles
Turin|IT|-|Turim|Torino
Genoa|IT|-|Gênova|Genova
Bologna|IT|-|Bolonha
Athens|GR|-|Atenas
Prague|CZ|-|Praga
Vienna|AT|-|Viena|Wien
Salzburg|AT|-|Salzburgo
Warsaw|PL|-|Varsóvia|Warszawa
Kraków|PL|Krakow|Cracóvia|Cracow
Moscow|RU|-|Moscou|Moscovo
Saint Petersburg|RU|-|São Petersburgo|St Petersburg|Sao Petersburgo
Beijing|CN|-|Pequim|Peking
Shanghai|CN|-|Xangai
Tokyo|JP|-|Tóquio|Shibuya|Shinjuku|Asakusa|Ginza
Kyoto|JP|-|Quioto
Nara-shi|JP|Nara|Nara
Hiroshima|JP|-|Hiroxima
Seoul|KR|-|Seul
Busan|KR|-|Pusan
Mexico City|MX|-|Cidade do México|CDMX
Cape Town|ZA|-|Cidade do Cabo|Capetown
Johannesburg|ZA|-|Joanesburgo
Genève|CH|Geneva|Geneva|Genebra|Genf
Zürich|CH|Zurich|Zurique
Luzern|CH|Lucerne|Lucerne|Lucerna
Basel|CH|-|Basileia
Brussels|BE|-|Bruxelas|Bruxelles
Antwerpen|BE|Antwerp|Antwerp|Antuérpia
Brugge|BE|Bruges|Bruges
Gent|BE|Ghent|Ghent|Gante
Edinburgh|GB|-|Edimburgo
Copenhagen|DK|-|Copenhague|Copenhaga
Stockholm|SE|-|Estocolmo
Helsinki|FI|-|Helsinque
Reykjavík|IS|Reykjavik|Reiquiavique
New Delhi|IN|-|Nova Délhi|Nova Deli
Mumbai|IN|-|Bombay|Bombaim
Kolkata|IN|-|Calcutta|Calcutá
Bengaluru|IN|-|Bangalore
Philadelphia|US|-|Filadélfia|Philly
New Orleans|US|-|Nova Orleans|NOLA
Los Angeles|US|-|L.A.|LA
San Francisco|US|-|São Francisco|SF|San Fran
Washington, D.C.|US|Washington|Washington|Washington DC|Washington D.C.|DC|D.C.
Las Vegas|US|-|Vegas
Havana|CU|-|Habana|La Habana
Marrakesh|MA|-|Marraquexe|Marrakech|Marraqueche
Fès|MA|Fez|Fez|Fes
Cairo|EG|-|O Cairo
Istanbul|TR|-|Istambul
Sevilla|ES|Seville|Seville|Sevilha
Madrid|ES|-|Madri
Valencia|ES|-|Valência
Málaga|ES|Malaga|Malaga
Bilbao|ES|-|Bilbau
Santiago de Compostela|ES|-|Santiago de Compostela
The Hague|NL|-|Haia|Den Haag
Amsterdam|NL|-|Amesterdão|Amsterdã|Amesterdao
Dublin|IE|-|Dublim
Budapest|HU|-|Budapeste
Bucharest|RO|-|Bucareste
Belgrade|RS|-|Belgrado
Lyon|FR|-|Lião
Marseille|FR|-|Marselha|Marseilles
Bordeaux|FR|-|Bordéus
Strasbourg|FR|-|Estrasburgo
Chamonix-Mont-Blanc|FR|Chamonix|Chamonix
Montréal|CA|Montreal|Montreal
Québec|CA|Quebec City|Quebec City|Cidade de Quebec|Quebec
Singapore|SG|-|Singapura
Bangkok|TH|-|Banguecoque|Bangcoc
Jerusalem|IL|-|Jerusalém
Beirut|LB|-|Beirute
Buenos Aires|AR|-|Baires|Bs As|BsAs
San Carlos de Bariloche|AR|Bariloche|Bariloche
Armação de Búzios|BR|Búzios|Búzios|Buzios
Bogotá|CO|Bogota|Bogota
Medellín|CO|Medellin|Medellin
Rio de Janeiro|BR|-|Rio|Ipanema|Copacabana|Leblon|Barra da Tijuca|Botafogo|Arpoador|Lapa|RJ
Paris|FR|-|Montmartre|Le Marais|Marais|Saint-Germain-des-Prés|Champs-Élysées|Quartier Latin
Honolulu|US|-|Waikiki|Waikiki Beach
Miami Beach|US|-|South Beach
Sydney|AU|-|Bondi|Bondi Beach|Sidney
Florianópolis|BR|-|Jurerê|Jurerê Internacional|Lagoa da Conceição|Floripa|Floripa City
Salvador|BR|-|Pelourinho|Salvador da Bahia|SSA
Barcelona|ES|-|Barceloneta|Gothic Quarter|Bairro Gótico
Santorini|GR|-|Thira|Thera|Fira
Zakynthos|GR|-|Zante|Zákynthos
Jericoacoara|BR|-|Jeri
Irákleion|GR|Heraklion|Heraklion|Iraklion|Crete|Creta
Chaniá|GR|Chania|Chania
Fernando de Noronha|BR|-|Noronha
Koh Samui|TH|-|Ko Samui|Samui
Bali|ID|-|Ubud|Seminyak|Kuta
Belo Horizonte|BR|-|BH|Beagá|Belzonte
São Paulo|BR|-|Sampa|SP|Sampa City
Porto Alegre|BR|-|POA|Portinho
Curitiba|BR|-|CWB|Ctba
João Pessoa|BR|-|Jampa
Fortaleza|BR|-|Fortal
Paraty|BR|-|Parati
Porto Seguro|BR|-|Trancoso|Arraial d'Ajuda|Arraial da Ajuda
Brasília|BR|-|Brasilia|BSB
Foz do Iguaçu|BR|-|Foz|Iguaçu
Hong Kong|HK|-|Hongkong
Ho Chi Minh City|VN|-|Saigon|Ho Chi Minh
Hanoi|VN|-|Hanói
Kyiv|UA|-|Kiev|Kiev
Tbilisi|GE|-|Tbilissi
Amman|JO|-|Amã
Cusco|PE|-|Cuzco
Montevideo|UY|-|Montevidéu
Asunción|PY|Asuncion|Assunção
Panamá|PA|Panama City|Panama City|Cidade do Panamá
Cartagena|CO|-|Cartagena das Índias|Cartagena de Indias
Nairobi|KE|-|Nairóbi
Tunis|TN|-|Túnis
Algiers|DZ|-|Argel
Kathmandu|NP|-|Katmandu
Jakarta|ID|-|Jacarta
Taipei|TW|-|Taipé
Mykonos|GR|-|Míconos
Morro de São Paulo|BR|-|Morro de SP|Morro de Sao Paulo
Ribeirão Preto|BR|-|Ribeirao Preto
São Carlos|BR|-|Sanca
Donostia / San Sebastián|ES|San Sebastián|San Sebastian|Donostia
Gasteiz / Vitoria|ES|Vitoria-Gasteiz|Vitoria-Gasteiz|Gasteiz
Kuala Lumpur|MY|-|KL|K.L.
Johannesburg|ZA|-|Jozi|Joburg|Jo'burg|Egoli
New Orleans|US|-|Big Easy|the Big Easy|Nawlins|N'awlins
New York City|US|New York|Big Apple|the Big Apple|Gotham
Chicago|US|-|Windy City|the Windy City|Chi-town|Chitown|Chiraq
Las Vegas|US|-|Sin City
Boston|US|-|Beantown
San Francisco|US|-|Frisco|Bay Area|the Bay Area
Detroit|US|-|Motown|Motor City
Los Angeles|US|-|City of Angels
Seattle|US|-|Emerald City
Rio de Janeiro|BR|-|Cidade Maravilhosa|Rio de Janeiro city
São Paulo|BR|-|Terra da Garoa|Sampão
Bangkok|TH|-|BKK|Krung Thep
Ho Chi Minh City|VN|-|HCMC|HCM
Chennai|IN|-|Madras
Birmingham|GB|-|Brum
Rome|IT|-|Eternal City|the Eternal City|Cidade Eterna
Paris|FR|-|City of Light|City of Lights|Cidade Luz|Paree
Medellín|CO|-|Medallo
Valparaíso|CL|-|Valpo
Brisbane|AU|-|Brissie|Brisvegas
Melbourne|AU|-|Melbs
Barcelona|ES|-|BCN
Cape Town|ZA|-|Mother City|Kaapstad
Hong Kong|HK|-|HK
Amsterdam|NL|-|Mokum
Lisbon|PT|-|LIS|Lisbs
Edinburgh|GB|-|Auld Reekie
Balneário Camboriú|BR|-|Balneario|Balneário
Guarujá|BR|-|Guaruja

Campos do Jordão|BR|-|Campos do Jordao
Armação de Búzios|BR|Búzios|Buzios|Búzios RJ
Salvador|BR|-|Soterópolis|Salvador BA
Natal|BR|-|Natal RN|Cidade do Sol
Belém|BR|-|Belém do Pará|Belem do Para
Manaus|BR|-|Manaus AM
Maceió|BR|-|Maceio|Maceió AL
Vitória|BR|-|Vitória ES|Vitoria ES
Punta del Este|UY|-|Punta del este
Mar del Plata|AR|-|Mardel
San Carlos de Bariloche|AR|Bariloche
Cancún|MX|-|Cancun
Queenstown|NZ|-|ZQN
Dubai|AE|-|Dubay|Dubái
Abu Dhabi|AE|-|Abu Dabi
Zanzibar|TZ|-|Zanzibar City|Zanzibar Town|Stone Town

`

// ambiguous lists folded names that are also common words in English or
// Portuguese. They are taken as a city only when written with a capital
// letter away from the start of a sentence, or right after a word that
// introduces a place ("in", "to", "em", "para"…).
var ambiguous = wordSet(`nice mobile along of split bath reading vale praia rio
bonito natal salvador granada lagos faro sorrento deal march may june
august col cork hope fez tomar hull orange victoria florence chance plain wells
date time best mission temple visit bar bay beach union sale sur cap
santa mar sol luz paz fe rosario cruz corona esperanza concordia
independence liberty enterprise paradise pleasant providence eagle boulder
aurora arcadia angola belo pontal campo campos feira barra linha
serra centro vitoria vitória bom jesus lima tours troy york
palma sao santos marilia franca leme lins cha ita sumare americana
nova pará para sul norte bela vista ponte porto alto alegre pampa
canela colombo delmas kent derby lincoln buffalo newport salem
madeira jordan georgia jersey surprise mesa salto contagem canoas registro
serra formosa paulista salta corrientes posadas resistencia parana manta
pasto soledad bello van batman worms aurora regina windsor sunrise norman
paraiso independencia esperanca cachoeira cruzeiro estancia imperatriz
barreiras`)

// ambiguousPhrases are names of several words that are also phrases.
var ambiguousPhrases = phraseSet(`boa vista|campo grande|praia grande|rio grande|rio verde|
bela vista|santa cruz|vila nova|tres lagoas|ponte nova|sete lagoas|agua boa|
monte alto|bom jesus|santa maria|sao jose|san jose|palm beach|long beach|
virginia beach|new town|old town|centro historico|downtown`)

// stopNames are folded words never taken as a city on their own: function
// words and travel vocabulary that happen to name a place somewhere.
var stopNames = wordSet(`a o e de da do das dos em no na nos nas um uma para por com
the an and in on at to for from with by or as is it me my we us our you your
be do go so no yes ok hi hello oi ola obrigado obrigada thanks thank please
hotel hotels hostel hostels restaurant restaurants food comida bar bars
photo photos foto fotos album albums trip viagem weekend semana noite noites
night nights day days dia dias week weeks mes month people pessoas guests
adults kids children criancas adultos family familia casal couple
center centre city cidade downtown airport aeroporto station estacao metro subway
beach beaches mountain montanha lake lago river park parque island ilha
sur sul norte north south east west leste oeste
new san santa saint st la le el al
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro
monday tuesday wednesday thursday friday saturday sunday
segunda terca quarta quinta sexta sabado domingo
one two three four five six seven eight nine ten eleven twelve
dois duas tres quatro cinco seis sete oito nove dez onze doze
como quero queria preciso qual quais onde quando quanto mais menos bom boa muito
que se ou mas tem ter ser estar vou vamos ir ver mostre mostra mostrar
what where when how which who can could would will need want looking
show find get see list any some all this that these those next last
cheap barato barata good great top luxury
spring summer autumn fall winter primavera verao inverno outono
stay estadia hospedagem pousada airbnb apartment apartamento
dinner jantar lunch almoco breakfast cafe sushi pizza
christmas easter pascoa holiday holidays ferias feriado
tomorrow amanha today hoje mid early late begin end inicio fim final
me eu ele ela nos voces they them he she his her its
us uk eu`)

func phraseSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Split(s, "|") {
		if p = strings.TrimSpace(p); p != "" {
			m[p] = true
		}
	}
	return m
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range splitFields(s) {
		m[w] = true
	}
	return m
}
