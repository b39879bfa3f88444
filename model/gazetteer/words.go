package gazetteer

import "strings"

// commonWords are words of five letters or more that travellers write in
// English or Portuguese, folded: they never misspell a place, however
// near a city's name they are ("heading" and Reading, "marido" and
// Marino, "perto" and Perth). First names count too ("Maria" is no
// misspelt Zaria). Shorter words are never taken for a misspelt name.
var commonWords = wordSet(`
about above across actually adult adults advice after afternoon again against
airline airport album albums almost alone along already also although always
amazing another answer anyone anything anyway apartment apartments around
arrive arriving asked attractions available avoid awesome
backpacking baggage balcony bathroom beach beaches beautiful because bedroom
before begin behind being below besides better between bicycle bigger birthday
booking bookings boring bottle breakfast bridge brother brothers brunch
budget buffet building business canyon carnival castle cathedral central
centre change changed cheaper cheapest cheers children choose church cities
classic clean close closer coffee college comfortable coming conference
cooking could country countryside couple couples cousin cousins cruise
culture currency daughter daughters days dessert different dinner dinners
direct dishes doing downtown during early eating either elegant eleven
english enjoy enough evening event events every everyone everything exactly
expensive family famous fancy father favorite favourite festival fifteen
first flight flights floor flying follow foods forest forget fourth
france french fresh friday friend friends front fully funny garden getaway
girlfriend going grand grandma grandpa grandparents great group guests guide
gonna happy harbor harbour having heading healthy hello hiking himself
historic history holiday holidays honeymoon hostel hotel hotels house hours
husband idea indian instead island islands italian itinerary japanese
journey jungle kitchen knows lake large later leave leaving light little
local lodge looking lovely luggage lunch luxury maybe meeting might minutes
modern money month months morning mother mountain mountains museum museums
music nearby nearest never night nights nobody north nothing number ocean
often option options other others outside overnight palace parents parking
partner party passport people perfect person photo photos pictures place
places plane planning please pretty price prices quiet rather really
recommend relax resort restaurant restaurants return right river romantic
rooms round saturday school scuba seafood season second seven several share
should shower sightseeing since single sister sisters sleep small something
sometimes somewhere south spots spring stars start starting station staying
still street student suite summer sunday sunset super sushi sweet table
taken taking thanks thing things think third those three through thursday
ticket tickets today together tomorrow tonight total touristy tours towards
trains travel travelers traveling travellers travelling trips tuesday twelve
under until vacation vegan vegetarian visit visiting walking wanna wedding
wednesday week weekend weekends weeks where which while whole winter within
without would yesterday young
abril acho agora ainda albergue alguem algum alguma almoco amanha amigas
amigo amigos andar antes aniversario apartamento aqui assim baixa bairro
barato barata baratos barco bastante bebes bonita bonito brasil cachoeira
cadeira caminho cansado carnaval carro casal casamento centro chegar chego
chuva cidade cidades clima cobertura comer comida comigo como conhecer conta
contigo corrida cozinha crianca criancas cunhado cunhada depois desde destino
dezembro diaria diarias dinheiro domingo durante escola esposa estava estou
estrada estrelas familia fazer feriado feriadao ferias festa fevereiro
filha filhas filhos final ficar fique fiquei fotos frente gente gostaria
gostei hospedagem hoteis hotel igreja incrivel inverno irmao irmaos irma
irmas janeiro jantar julho junho lagoa legal lindo linda lugar lugares
maior marco marido melhor menor mesmo montanha mulher museu muito muita
namorada namorado natureza noite noites nosso nossa novembro obrigado
obrigada onibus orcamento outono outubro padrao paisagem parque passagem
passar passeio passeios pegar pensando perto pessoa pessoas piscina
pousada pousadas praia praias precisa preciso primavera primeira primeiro
prima primo proxima proximo quarto quartos quero queria rapido reserva
reservar restaurante restaurantes roteiro sabado saida sair santo santa
saudade segunda semana semanas setembro sexta sobrinho sobrinha sogra sogro
sozinho sozinha tambem tarde tempo terca trabalho trilha turismo ultima
ultimo vamos verao viagem viagens viajar visitar vista voltar volto
maria mario paulo pedro joao jose antonio ana carlos lucas marcos vivi
julia juliana fernanda camila beatriz helena sophia laura lucia rafael
daniel gabriel miguel david james john michael robert sarah emily emma
olivia jessica jennifer mardi fourth meados inicio comeco metade quinzena finalzinho
fomos estive passei passamos viajamos viajei gente semanas
part parts parte partes piece pieces phone phones
minha minhas nosso nossa nossos nossas deles delas sobre entre porque quando mesmo mesma outra outro
outros outras todas todos muitos muitas poucos pouco tanto quanto coisa coisas medico medica consulta
remedio escola compra comprar vender contas banco senha sistema empresa cliente reuniao ontem agenda
trabalhar estudar jogar assistir tocar cantar dormir acordar chegar ligar desligar mandar enviar receber
trem aviao navio favor ajuda problema pedido entrega endereco email mensagem celular computador internet aplicativo
`)

// wordEndings are English and Portuguese endings names of places rarely
// misspelt into: "-ing" and "-ed" words, "-ção", "-mente".
var wordEndings = []string{"ing", "ings", "ed", "tion", "tions", "ness", "cao", "coes", "mente", "ando", "endo", "indo"}

// looksLikeWord reports a word whose ending makes it a word rather than
// a place.
func looksLikeWord(w string) bool {
	if strings.HasSuffix(w, "jing") || strings.HasSuffix(w, "qing") {
		return false // Beijing, Chongqing: no English "-ing" word
	}
	for _, e := range wordEndings {
		if len(w) > len(e)+2 && strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// pluralEndings turn an English or Portuguese plural into its singular:
// "casais" is "casal", "baratas" "barata", "cities" "city".
var pluralEndings = [][2]string{{"ais", "al"}, {"eis", "el"}, {"ois", "ol"}, {"oes", "ao"}, {"ns", "m"},
	{"ies", "y"}, {"es", ""}, {"s", ""}}

// pluralOfCommon reports the plural of a common word.
func pluralOfCommon(w string) bool {
	for _, e := range pluralEndings {
		if stem, ok := strings.CutSuffix(w, e[0]); ok && len(stem) >= 2 && commonWords[stem+e[1]] {
			return true
		}
	}
	return false
}
