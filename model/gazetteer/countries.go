package gazetteer

// countryTable lists ISO 3166-1 alpha-2 codes with English and Portuguese
// names, then extra names people type, separated by "|".
const countryTable = `AD|Andorra|Andorra
AE|United Arab Emirates|Emirados Árabes Unidos|UAE|Emirados Arabes|Emirates
AF|Afghanistan|Afeganistão
AL|Albania|Albânia
AM|Armenia|Armênia
AO|Angola|Angola
AR|Argentina|Argentina
AT|Austria|Áustria
AU|Australia|Austrália
AZ|Azerbaijan|Azerbaijão
BA|Bosnia and Herzegovina|Bósnia e Herzegovina|Bosnia
BD|Bangladesh|Bangladesh
BE|Belgium|Bélgica
BG|Bulgaria|Bulgária
BH|Bahrain|Bahrein
BO|Bolivia|Bolívia
BR|Brazil|Brasil
BS|Bahamas|Bahamas
BY|Belarus|Bielorrússia
BZ|Belize|Belize
CA|Canada|Canadá
CD|DR Congo|República Democrática do Congo
CH|Switzerland|Suíça
CI|Ivory Coast|Costa do Marfim
CL|Chile|Chile
CM|Cameroon|Camarões
CN|China|China
CO|Colombia|Colômbia
CR|Costa Rica|Costa Rica
CU|Cuba|Cuba
CV|Cape Verde|Cabo Verde
CY|Cyprus|Chipre
CZ|Czechia|Tchéquia|Czech Republic|República Tcheca|Chéquia
DE|Germany|Alemanha
DK|Denmark|Dinamarca
DO|Dominican Republic|República Dominicana
DZ|Algeria|Argélia
EC|Ecuador|Equador
EE|Estonia|Estônia
EG|Egypt|Egito
ES|Spain|Espanha
ET|Ethiopia|Etiópia
FI|Finland|Finlândia
FJ|Fiji|Fiji
FR|France|França
GB|United Kingdom|Reino Unido|UK|Great Britain|Grã-Bretanha|Britain
GE|Georgia|Geórgia
GH|Ghana|Gana
GR|Greece|Grécia
GT|Guatemala|Guatemala
HK|Hong Kong|Hong Kong
HN|Honduras|Honduras
HR|Croatia|Croácia
HU|Hungary|Hungria
ID|Indonesia|Indonésia
IE|Ireland|Irlanda
IL|Israel|Israel
IN|India|Índia
IQ|Iraq|Iraque
IR|Iran|Irã|Irão
IS|Iceland|Islândia
IT|Italy|Itália
JM|Jamaica|Jamaica
JO|Jordan|Jordânia
JP|Japan|Japão
KE|Kenya|Quênia
KH|Cambodia|Camboja
KR|South Korea|Coreia do Sul|Korea|Coreia
KW|Kuwait|Kuwait
KZ|Kazakhstan|Cazaquistão
LA|Laos|Laos
LB|Lebanon|Líbano
LK|Sri Lanka|Sri Lanka
LT|Lithuania|Lituânia
LU|Luxembourg|Luxemburgo
LV|Latvia|Letônia
MA|Morocco|Marrocos
MC|Monaco|Mônaco
MD|Moldova|Moldávia
ME|Montenegro|Montenegro
MG|Madagascar|Madagascar
MK|North Macedonia|Macedônia do Norte
MM|Myanmar|Mianmar
MN|Mongolia|Mongólia
MO|Macao|Macau
MT|Malta|Malta
MU|Mauritius|Maurício
MV|Maldives|Maldivas
MX|Mexico|México
MY|Malaysia|Malásia
MZ|Mozambique|Moçambique
NA|Namibia|Namíbia
NG|Nigeria|Nigéria
NI|Nicaragua|Nicarágua
NL|Netherlands|Países Baixos|Holland|Holanda
NO|Norway|Noruega
NP|Nepal|Nepal
NZ|New Zealand|Nova Zelândia
OM|Oman|Omã
PA|Panama|Panamá
PE|Peru|Peru
PH|Philippines|Filipinas
PK|Pakistan|Paquistão
PL|Poland|Polônia|Polónia
PR|Puerto Rico|Porto Rico
PS|Palestine|Palestina
PT|Portugal|Portugal
PY|Paraguay|Paraguai
QA|Qatar|Catar
RO|Romania|Romênia
RS|Serbia|Sérvia
RU|Russia|Rússia
RW|Rwanda|Ruanda
SA|Saudi Arabia|Arábia Saudita
SC|Seychelles|Seychelles|Seicheles
SE|Sweden|Suécia
SG|Singapore|Singapura
SI|Slovenia|Eslovênia
SK|Slovakia|Eslováquia
SN|Senegal|Senegal
SV|El Salvador|El Salvador
SY|Syria|Síria
TH|Thailand|Tailândia
TN|Tunisia|Tunísia
TR|Turkey|Turquia|Türkiye
TW|Taiwan|Taiwan
TZ|Tanzania|Tanzânia
UA|Ukraine|Ucrânia
UG|Uganda|Uganda
US|United States|Estados Unidos|USA|US|EUA|America|América|United States of America|Estados Unidos da América
UY|Uruguay|Uruguai
UZ|Uzbekistan|Uzbequistão
VE|Venezuela|Venezuela
VN|Vietnam|Vietnã|Vietname
ZA|South Africa|África do Sul
ZM|Zambia|Zâmbia
ZW|Zimbabwe|Zimbábue
`

// territoryNames name the countries and territories that landmarks are
// in ("Aruba", "Bora Bora") but travellers name as islands: their names
// are shown, and the landmark, not the country, is what the name means.
const territoryNames = `AW|Aruba|Aruba
CW|Curaçao|Curaçao
BB|Barbados|Barbados
LC|Saint Lucia|Santa Lúcia
PF|French Polynesia|Polinésia Francesa
FO|Faroe Islands|Ilhas Faroé
`

// usStates maps US state names and postal codes to GeoNames admin1 codes,
// so that "Paris, Texas" and "Portland, OR" resolve.
const usStates = `AL|Alabama
AK|Alaska
AZ|Arizona
AR|Arkansas
CA|California|Califórnia
CO|Colorado
CT|Connecticut
DE|Delaware
FL|Florida|Flórida
GA|Georgia
HI|Hawaii|Havaí
ID|Idaho
IL|Illinois
IN|Indiana
IA|Iowa
KS|Kansas
KY|Kentucky
LA|Louisiana|Luisiana
ME|Maine
MD|Maryland
MA|Massachusetts
MI|Michigan
MN|Minnesota
MS|Mississippi
MO|Missouri
MT|Montana
NE|Nebraska
NV|Nevada
NH|New Hampshire
NJ|New Jersey
NM|New Mexico|Novo México
NY|New York State|Estado de Nova York
NC|North Carolina|Carolina do Norte
ND|North Dakota
OH|Ohio
OK|Oklahoma
OR|Oregon
PA|Pennsylvania|Pensilvânia
RI|Rhode Island
SC|South Carolina|Carolina do Sul
SD|South Dakota
TN|Tennessee
TX|Texas
UT|Utah
VT|Vermont
VA|Virginia|Virgínia
WA|Washington State
WV|West Virginia
WI|Wisconsin
WY|Wyoming
DC|District of Columbia
`

// brazilianStates maps the abbreviations of Brazil's states (UF) to
// GeoNames admin1 codes, so that "Penedo RJ" and "Bonito/MS" resolve.
var brazilianStates = map[string]string{
	"ac": "01", "al": "02", "ap": "03", "am": "04", "ba": "05", "ce": "06", "df": "07", "es": "08",
	"ms": "11", "ma": "13", "mt": "14", "mg": "15", "pa": "16", "pb": "17", "pr": "18", "pi": "20",
	"rj": "21", "rn": "22", "rs": "23", "ro": "24", "rr": "25", "sc": "26", "sp": "27", "se": "28",
	"go": "29", "pe": "30", "to": "31",
}
