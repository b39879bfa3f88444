package ui

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/locale"

	"github.com/tripgraph/tripgraph/model/intent"
)

// MaxMessageChars is the most characters the message box takes: what
// chatinput accepts of one message.
const MaxMessageChars = chatinput.MaxMessageChars

// The languages of the interface: locale's, under the short names the
// catalog is written with.
const (
	English    = locale.English
	Portuguese = locale.Portuguese
)

type langKey struct{}

// WithLanguage returns a context whose rendering uses lang (one of
// locale.All; anything else is locale.Default).
func WithLanguage(ctx context.Context, lang string) context.Context {
	return context.WithValue(ctx, langKey{}, Language(lang))
}

// Language normalises a language tag ("pt-BR", "pt", "en-GB") to one the
// interface speaks (see locale.Of).
func Language(tag string) string { return locale.Of(tag) }

// htmlLang is the lang attribute of a page in the context's language.
func htmlLang(ctx context.Context) string { return locale.HTML(lang(ctx)) }

// lang is the language of a rendering context.
func lang(ctx context.Context) string {
	if l, ok := ctx.Value(langKey{}).(string); ok {
		return l
	}
	return locale.Default
}

// catalog holds every label of the interface, in each language. A value
// with a "|" is a plural: singular|plural, chosen by plural.
var catalog = map[string]map[string]string{
	"assumed":                      {English: "assumed", Portuguese: "estimativa"},
	"assumed.hint":                 {English: "Values marked assumed were not stated: tell me if they are wrong.", Portuguese: "Os valores marcados como estimativa não foram informados: me diga se estiverem errados."},
	"trip":                         {English: "Your trip", Portuguese: "Sua viagem"},
	"trip.edit":                    {English: "Change the trip", Portuguese: "Alterar a viagem"},
	"trip.update":                  {English: "Update and search again", Portuguese: "Atualizar e buscar de novo"},
	"destination":                  {English: "Destination", Portuguese: "Destino"},
	"itinerary":                    {English: "Itinerary", Portuguese: "Roteiro"},
	"cap.night":                    {English: "Up to %s a night", Portuguese: "Até %s por noite"},
	"cap.total":                    {English: "Up to %s for the stay", Portuguese: "Até %s pela estadia"},
	"dates":                        {English: "Dates", Portuguese: "Datas"},
	"nights":                       {English: "Nights", Portuguese: "Noites"},
	"guests":                       {English: "Guests", Portuguese: "Hóspedes"},
	"n.nights":                     {English: "%d night|%d nights", Portuguese: "%d noite|%d noites"},
	"n.guests":                     {English: "%d guest|%d guests", Portuguese: "%d hóspede|%d hóspedes"},
	"n.photos":                     {English: "%d photo|%d photos", Portuguese: "%d foto|%d fotos"},
	"n.places":                     {English: "%d place|%d places", Portuguese: "%d lugar|%d lugares"},
	"n.days":                       {English: "%d day|%d days", Portuguese: "%d dia|%d dias"},
	"n.stays":                      {English: "%d place to stay|%d places to stay", Portuguese: "%d hospedagem|%d hospedagens"},
	"n.restaurants":                {English: "%d restaurant|%d restaurants", Portuguese: "%d restaurante|%d restaurantes"},
	"n.albums":                     {English: "%d album|%d albums", Portuguese: "%d álbum|%d álbuns"},
	"stays.in":                     {English: "Places to stay in %s", Portuguese: "Onde ficar: %s"},
	"restaurants.in":               {English: "Restaurants in %s", Portuguese: "Restaurantes: %s"},
	"per.night":                    {English: "per night", Portuguese: "por noite"},
	"rating":                       {English: "Rating", Portuguese: "Avaliação"},
	"details":                      {English: "Details", Portuguese: "Detalhes"},
	"check.in":                     {English: "Check-in", Portuguese: "Entrada"},
	"check.out":                    {English: "Check-out", Portuguese: "Saída"},
	"total":                        {English: "Total", Portuguese: "Total"},
	"total.formula":                {English: "%s × %s", Portuguese: "%s × %s"},
	"capacity":                     {English: "Capacity", Portuguese: "Capacidade"},
	"sleeps":                       {English: "Sleeps %d", Portuguese: "Para %d"},
	"stays.none":                   {English: "No places to stay were found. Try other dates or fewer guests.", Portuguese: "Nenhuma hospedagem foi encontrada. Tente outras datas ou menos hóspedes."},
	"restaurants.none.cuisine":     {English: "No %s restaurants were found.", Portuguese: "Não foram encontrados restaurantes de cozinha %s."},
	"restaurants.cuisines":         {English: "Cuisines in this city: %s.", Portuguese: "Cozinhas nesta cidade: %s."},
	"restaurants.none":             {English: "No restaurants were found. Try a nearby city.", Portuguese: "Não foram encontrados restaurantes. Tente uma cidade próxima."},
	"albums.none":                  {English: "No albums yet. Upload photos to create one.", Portuguese: "Ainda não há álbuns. Envie fotos para criar um."},
	"photos.none":                  {English: "No photos matched. Try another place, date or word.", Portuguese: "Nenhuma foto encontrada. Tente outro lugar, data ou palavra."},
	"not.covered":                  {English: "We do not cover %s yet. Try a nearby city.", Portuguese: "Ainda não cobrimos %s. Tente uma cidade próxima."},
	"cuisine.filter":               {English: "Filter by cuisine", Portuguese: "Filtrar por cozinha"},
	"cuisine.all":                  {English: "All", Portuguese: "Todas"},
	"hours":                        {English: "Hours", Portuguese: "Horário"},
	"km":                           {English: "%s km", Portuguese: "%s km"},
	"popular":                      {English: "Popular", Portuguese: "Popular"},
	"albums":                       {English: "Your albums", Portuguese: "Seus álbuns"},
	"photos":                       {English: "Photos", Portuguese: "Fotos"},
	"photos.for":                   {English: "Photos for “%s”", Portuguese: "Fotos de “%s”"},
	"photos.total":                 {English: "%s found", Portuguese: "%s encontradas"},
	"photos.shown":                 {English: "%s found, %d shown", Portuguese: "%s encontradas, %d mostradas"},
	"photos.atleast":               {English: "at least %s", Portuguese: "pelo menos %s"},
	"stats":                        {English: "Trip in numbers", Portuguese: "A viagem em números"},
	"stats.of":                     {English: "Trip in numbers: %s", Portuguese: "A viagem em números: %s"},
	"stats.photos":                 {English: "Photos", Portuguese: "Fotos"},
	"stats.places":                 {English: "Places", Portuguese: "Lugares"},
	"stats.dates":                  {English: "Dates", Portuguese: "Datas"},
	"error.title":                  {English: "Something went wrong", Portuguese: "Algo deu errado"},
	"error.next.UNAVAILABLE":       {English: "The service is not answering right now. Send your message again in a minute.", Portuguese: "O serviço não está respondendo agora. Envie a mensagem de novo em um minuto."},
	"error.next.NOT_FOUND":         {English: "Nothing matched. Check the name, or ask in other words.", Portuguese: "Nada foi encontrado. Confira o nome ou pergunte de outra forma."},
	"error.next.BAD_REQUEST":       {English: "The request could not be understood. Rephrase it with a city and dates.", Portuguese: "O pedido não foi entendido. Escreva de novo com uma cidade e datas."},
	"error.next.FORBIDDEN":         {English: "You cannot see this. Sign in with the account that owns it.", Portuguese: "Você não pode ver isto. Entre com a conta a que isto pertence."},
	"error.next.UNAUTHENTICATED":   {English: "Sign in, then try again.", Portuguese: "Entre na sua conta e tente de novo."},
	"error.next.CONFLICT":          {English: "A reply is still being written, or this was answered already. Reload the page to see where the conversation is.", Portuguese: "Uma resposta ainda está sendo escrita, ou isto já foi respondido. Recarregue a página para ver em que ponto está a conversa."},
	"error.next.LIMIT_EXCEEDED":    {English: "Delete something you keep that you no longer need, then try again.", Portuguese: "Apague algo que você guarda e não usa mais, depois tente de novo."},
	"error.what.BAD_REQUEST":       {English: "The request could not be used as it was.", Portuguese: "O pedido não pôde ser usado como estava."},
	"error.what.UNAUTHENTICATED":   {English: "You are not signed in.", Portuguese: "Você não entrou na sua conta."},
	"error.what.FORBIDDEN":         {English: "This belongs to another account.", Portuguese: "Isto pertence a outra conta."},
	"error.what.NOT_FOUND":         {English: "This was not found.", Portuguese: "Isto não foi encontrado."},
	"error.what.CONFLICT":          {English: "This clashes with a change made in the meantime.", Portuguese: "Isto esbarra em uma mudança feita nesse meio-tempo."},
	"error.what.UNSUPPORTED_MEDIA": {English: "This kind of content is not accepted.", Portuguese: "Esse tipo de conteúdo não é aceito."},
	"error.what.TOO_MANY_REQUESTS": {English: "Too many requests at once; wait a moment and try again.", Portuguese: "Pedidos demais de uma vez; espere um pouco e tente de novo."},
	"error.what.UNAVAILABLE":       {English: "The service is unavailable right now.", Portuguese: "O serviço está indisponível agora."},
	"error.what.LIMIT_EXCEEDED":    {English: "This would take your account past one of its limits.", Portuguese: "Isto passaria de um dos limites da sua conta."},
	"error.what.INTERNAL":          {English: "Something failed on our side.", Portuguese: "Algo falhou do nosso lado."},
	"error.fields":                 {English: "Check %s and send the form again.", Portuguese: "Confira %s e envie o formulário de novo."},
	"error.fields.and":             {English: " and ", Portuguese: " e "},
	"field.location":               {English: "the destination", Portuguese: "o destino"},
	"field.startDate":              {English: "the check-in date", Portuguese: "a data de entrada"},
	"field.endDate":                {English: "the check-out date", Portuguese: "a data de saída"},
	"field.numberOfGuests":         {English: "the number of guests", Portuguese: "o número de hóspedes"},
	"field.message":                {English: "your message", Portuguese: "sua mensagem"},
	"page.next.NOT_FOUND":          {English: "This page does not exist, or it belongs to another account.", Portuguese: "Esta página não existe ou pertence a outra conta."},
	"error.next":                   {English: "Try again. If it keeps failing, start a new conversation.", Portuguese: "Tente de novo. Se continuar falhando, comece uma nova conversa."},
	"error.component":              {English: "This part of the answer cannot be shown.", Portuguese: "Esta parte da resposta não pode ser mostrada."},
	"you":                          {English: "You", Portuguese: "Você"},
	"assistant":                    {English: "Assistant", Portuguese: "Assistente"},
	"conversation":                 {English: "Conversation", Portuguese: "Conversa"},
	"conversation.empty":           {English: "Ask about a trip: where, when and how many of you.", Portuguese: "Pergunte sobre uma viagem: onde, quando e quantas pessoas."},
	"threads":                      {English: "Conversations", Portuguese: "Conversas"},
	"threads.none":                 {English: "No conversations yet.", Portuguese: "Ainda não há conversas."},
	"thread.untitled":              {English: "Untitled conversation", Portuguese: "Conversa sem título"},
	"thread.new":                   {English: "New conversation", Portuguese: "Nova conversa"},
	"message":                      {English: "Your message", Portuguese: "Sua mensagem"},
	"message.hint":                 {English: "For example: 4 nights in Lisbon in May, 3 of us", Portuguese: "Por exemplo: 4 noites em Lisboa em maio, somos 3"},
	"book":                         {English: "Book %s", Portuguese: "Reservar %s"},
	"error.next.INTERNAL":          {English: "This reply could not be finished. Send your message again; if it keeps failing, start a new conversation.", Portuguese: "Esta resposta não pôde ser terminada. Envie a mensagem de novo; se continuar falhando, comece uma nova conversa."},
	"send":                         {English: "Send", Portuguese: "Enviar"},
	"skip":                         {English: "Skip to the conversation", Portuguese: "Pular para a conversa"},
	"skip.main":                    {English: "Skip to the main content", Portuguese: "Pular para o conteúdo"},
	"home":                         {English: "Back to your conversations", Portuguese: "Voltar para suas conversas"},
	"login.title":                  {English: "Sign in to tripgraph", Portuguese: "Entrar no tripgraph"},
	"login.key":                    {English: "Sign in with your API key", Portuguese: "Entrar com sua chave de API"},
	"login.key.label":              {English: "API key", Portuguese: "Chave de API"},
	"login.submit":                 {English: "Sign in", Portuguese: "Entrar"},
	"login.bad":                    {English: "That API key is not valid. Check it and try again, or sign up.", Portuguese: "Essa chave de API não é válida. Confira e tente de novo, ou cadastre-se."},
	"login.link.bad":               {English: "That sign-in link was used already or has expired. Sign in with your API key.", Portuguese: "Esse link de entrada já foi usado ou expirou. Entre com sua chave de API."},
	"signup":                       {English: "New here? Sign up", Portuguese: "Novo por aqui? Cadastre-se"},
	"signup.name":                  {English: "User name", Portuguese: "Nome de usuário"},
	"signup.name.hint":             {English: "Lower-case letters, digits, “.”, “_” or “-”.", Portuguese: "Letras minúsculas, números, “.”, “_” ou “-”."},
	"signup.submit":                {English: "Sign up", Portuguese: "Cadastrar"},
	"signup.taken":                 {English: "That name is taken. Choose another.", Portuguese: "Esse nome já existe. Escolha outro."},
	"signup.bad":                   {English: "A name is 1 to 63 lower-case letters, digits, “.”, “_” or “-”, starting with a letter or digit.", Portuguese: "Um nome tem de 1 a 63 letras minúsculas, números, “.”, “_” ou “-”, começando por letra ou número."},
	"signup.done":                  {English: "Welcome, %s", Portuguese: "Bem-vindo, %s"},
	"signup.key":                   {English: "This is your API key. It is shown only now: keep it somewhere safe, you sign in with it.", Portuguese: "Esta é sua chave de API. Ela só é mostrada agora: guarde-a em um lugar seguro, é com ela que você entra."},
	"signup.continue":              {English: "Start planning", Portuguese: "Começar a planejar"},
	"logout":                       {English: "Sign out", Portuguese: "Sair"},
	"timeline.open":                {English: "Timeline: every saved step", Portuguese: "Linha do tempo: cada passo salvo"},
	"timeline.back":                {English: "Back to the conversation", Portuguese: "Voltar para a conversa"},
	"branch.other":                 {English: "on another branch", Portuguese: "em outro ramo"},
	"branch.end":                   {English: "end of another branch", Portuguese: "fim de outro ramo"},
	"branch.point":                 {English: "%d branch from here|%d branches from here", Portuguese: "%d ramo a partir daqui|%d ramos a partir daqui"},
	"fork":                         {English: "Continue from here", Portuguese: "Continuar a partir daqui"},
	"fork.hint":                    {English: "A new branch starts at this step with your message; the conversation as it is stays in the timeline.", Portuguese: "Um novo ramo começa neste passo com sua mensagem; a conversa como está fica na linha do tempo."},
	"timeline":                     {English: "Timeline", Portuguese: "Linha do tempo"},
	"timeline.step":                {English: "Step %d", Portuguese: "Passo %d"},
	"timeline.input":               {English: "You", Portuguese: "Você"},
	"timeline.update":              {English: "update", Portuguese: "atualização"},
	"timeline.fork":                {English: "fork", Portuguese: "ramificação"},
	"change.waiting":               {English: "waiting for an answer to %s", Portuguese: "aguardando resposta para %s"},
	"timeline.none":                {English: "This conversation has no saved steps.", Portuguese: "Esta conversa não tem passos salvos."},
	"timeline.at":                  {English: "The conversation at step %d", Portuguese: "A conversa no passo %d"},
	"timeline.trace":               {English: "Trace of this step's run", Portuguese: "Rastro da execução deste passo"},
	"change.you":                   {English: "your message", Portuguese: "sua mensagem"},
	"change.replied":               {English: "replied “%s”", Portuguese: "respondeu “%s”"},
	"timeline.asked":               {English: "About", Portuguese: "Sobre"},
	"change.added":                 {English: "added %s", Portuguese: "adicionou %s"},
	"change.updated":               {English: "updated %s", Portuguese: "atualizou %s"},
	"node.classify":                {English: "Sorted the message", Portuguese: "Classificou a mensagem"},
	"node.extraction":              {English: "Read the trip details", Portuguese: "Leu os detalhes da viagem"},
	"node.callTools":               {English: "Looked places up", Portuguese: "Fez as buscas"},
	"node.other":                   {English: "Worked on the reply", Portuguese: "Trabalhou na resposta"},
	"part.trip-details":            {English: "the trip details", Portuguese: "os detalhes da viagem"},
	"part.accommodations-list":     {English: "the places to stay", Portuguese: "a lista de hospedagens"},
	"part.restaurants-list":        {English: "the restaurants", Portuguese: "a lista de restaurantes"},
	"part.album-list":              {English: "the albums", Portuguese: "a lista de álbuns"},
	"part.photo-grid":              {English: "the photos", Portuguese: "as fotos"},
	"part.trip-stats":              {English: "the trip in numbers", Portuguese: "a viagem em números"},
	"part.booking-confirmation":    {English: "the booking confirmation", Portuguese: "a confirmação de reserva"},
	"part.other":                   {English: "a part of the answer", Portuguese: "uma parte da resposta"},
	"change.trip":                  {English: "trip details changed", Portuguese: "detalhes da viagem alterados"},
	"change.trip.cleared":          {English: "trip details cleared", Portuguese: "detalhes da viagem apagados"},
	"change.nothing":               {English: "nothing shown changed", Portuguese: "nada visível mudou"},
	"change.unknown":               {English: "changes unknown (earlier step not loaded)", Portuguese: "alterações desconhecidas (passo anterior não carregado)"},
	"booking.pending":              {English: "Confirm your booking", Portuguese: "Confirme sua reserva"},
	"booking.booked":               {English: "Booked", Portuguese: "Reservado"},
	"booking.declined":             {English: "Booking cancelled", Portuguese: "Reserva cancelada"},
	"booking.expired":              {English: "Booking expired", Portuguese: "Reserva expirada"},
	"booking.changed":              {English: "Booking not made", Portuguese: "Reserva não feita"},
	"booking.failed":               {English: "Booking failed", Portuguese: "A reserva falhou"},
	"booking.unavailable":          {English: "Already booked", Portuguese: "Já reservada"},
	"booking.set-aside":            {English: "Booking set aside", Portuguese: "Reserva deixada de lado"},
	"booking.place":                {English: "Place", Portuguese: "Hospedagem"},
	"booking.until":                {English: "Confirm by", Portuguese: "Confirme até"},
	"booking.confirm":              {English: "Confirm", Portuguese: "Confirmar"},
	"booking.cancel":               {English: "Cancel", Portuguese: "Cancelar"},
	"booking.reference":            {English: "Your booking reference:", Portuguese: "Código da reserva:"},
	"booking.next.declined":        {English: "Nothing was booked. Ask for other places whenever you like.", Portuguese: "Nada foi reservado. Peça outras hospedagens quando quiser."},
	"booking.next.expired":         {English: "The time to confirm ran out and nothing was booked. Ask to book it again.", Portuguese: "O tempo para confirmar acabou e nada foi reservado. Peça a reserva de novo."},
	"booking.next.changed":         {English: "The answer was for another booking, so nothing was booked. Ask to book it again.", Portuguese: "A resposta era para outra reserva, por isso nada foi reservado. Peça a reserva de novo."},
	"booking.next.failed":          {English: "Nothing was booked. Try again in a minute.", Portuguese: "Nada foi reservado. Tente de novo em um minuto."},
	"booking.next.unavailable":     {English: "This place is already booked for some of these nights, so nothing was booked. Choose another place or other dates.", Portuguese: "Esta hospedagem já está reservada em algumas dessas noites, então nada foi reservado. Escolha outra hospedagem ou outras datas."},
	"booking.next.set-aside":       {English: "You moved on before confirming, so nothing was booked. Press Book again to book it.", Portuguese: "A conversa seguiu antes da confirmação, então nada foi reservado. Toque em Reservar de novo para reservar."},
	"warn.booked-here":             {English: "You already booked this place for %s (reference %s): it cannot be booked twice for the same nights.", Portuguese: "Você já reservou esta hospedagem para %s (código %s): ela não pode ser reservada duas vezes nas mesmas noites."},
	"warn.booked-before":           {English: "You already booked this place for %s (reference %s). Confirming books it again, for these dates.", Portuguese: "Você já reservou esta hospedagem para %s (código %s). Confirmar faz outra reserva, para estas datas."},
	"warn.taken":                   {English: "This place is already booked for some of these nights, so the booking will most likely fail.", Portuguese: "Esta hospedagem já está reservada em algumas dessas noites, então a reserva deve falhar."},
	"nearby":                       {English: "Covered cities nearby:", Portuguese: "Cidades próximas cobertas:"},
	"status.stays.in":              {English: "Searching stays in %s…", Portuguese: "Buscando hospedagem (%s)…"},
	"status.restaurants.in":        {English: "Searching restaurants in %s…", Portuguese: "Buscando restaurantes (%s)…"},
	"status.accommodations-list":   {English: "Searching stays…", Portuguese: "Buscando hospedagem…"},
	"status.restaurants-list":      {English: "Searching restaurants…", Portuguese: "Buscando restaurantes…"},
	"status.album-list":            {English: "Opening your albums…", Portuguese: "Abrindo seus álbuns…"},
	"status.photo-grid":            {English: "Looking through your photos…", Portuguese: "Olhando suas fotos…"},
	"status.trip-stats":            {English: "Counting your trip…", Portuguese: "Contando sua viagem…"},
	"status.booking-confirmation":  {English: "Booking the stay…", Portuguese: "Reservando a hospedagem…"},
	"status.tool":                  {English: "Calling %s…", Portuguese: "Chamando %s…"},
	"status.found":                 {English: "Found %s", Portuguese: "Encontrado: %s"},
	"status.done":                  {English: "Done", Portuguese: "Pronto"},
	"status.failed":                {English: "The search failed; the answer says what to do.", Portuguese: "A busca falhou; a resposta diz o que fazer."},
	"language":                     {English: "Language", Portuguese: "Idioma"},
	"trip.changed":                 {English: "Change the trip to %s, %s, %s", Portuguese: "Mudar a viagem para %s, %s, %s"},
	"working":                      {English: "Working…", Portuguese: "Trabalhando…"},
	"sort":                         {English: "Sort by", Portuguese: "Ordenar por"},
	"sort.recommended":             {English: "Recommended", Portuguese: "Recomendadas"},
	"sort.price":                   {English: "Price", Portuguese: "Preço"},
	"sort.rating":                  {English: "Rating", Portuguese: "Avaliação"},
	"for.nights":                   {English: "for %s", Portuguese: "por %s"},
	"kind.hotel":                   {English: "Hotel", Portuguese: "Hotel"},
	"kind.apartment":               {English: "Apartment", Portuguese: "Apartamento"},
	"kind.guesthouse":              {English: "Guesthouse", Portuguese: "Pousada"},
	"kind.hostel":                  {English: "Hostel", Portuguese: "Hostel"},
	"area.centre":                  {English: "In the centre of %s", Portuguese: "No centro (%s)"},
	"area.north":                   {English: "%s km north of the centre", Portuguese: "%s km ao norte do centro"},
	"area.north-east":              {English: "%s km north-east of the centre", Portuguese: "%s km a nordeste do centro"},
	"area.east":                    {English: "%s km east of the centre", Portuguese: "%s km a leste do centro"},
	"area.south-east":              {English: "%s km south-east of the centre", Portuguese: "%s km a sudeste do centro"},
	"area.south":                   {English: "%s km south of the centre", Portuguese: "%s km ao sul do centro"},
	"area.south-west":              {English: "%s km south-west of the centre", Portuguese: "%s km a sudoeste do centro"},
	"area.west":                    {English: "%s km west of the centre", Portuguese: "%s km a oeste do centro"},
	"area.north-west":              {English: "%s km north-west of the centre", Portuguese: "%s km a noroeste do centro"},
	"price.level":                  {English: "Price level %d of 4", Portuguese: "Nível de preço %d de 4"},
	"from.centre":                  {English: "%s km from the centre", Portuguese: "%s km do centro"},
	"photos.more":                  {English: "Show %d more photo|Show %d more photos", Portuguese: "Mostrar mais %d foto|Mostrar mais %d fotos"},
	"message.keys":                 {English: "Enter sends; Shift+Enter starts a new line.", Portuguese: "Enter envia; Shift+Enter começa uma nova linha."},
	"message.count":                {English: "{n} of {max} characters", Portuguese: "{n} de {max} caracteres"},
	"problem.pastDates":            {English: "The check-in date is in the past.", Portuguese: "A data de entrada já passou."},
	"problem.endBeforeStart":       {English: "The check-out date is not after the check-in date.", Portuguese: "A data de saída não é depois da data de entrada."},
	"problem.tooFarAhead":          {English: "The check-in date is more than %d days ahead.", Portuguese: "A data de entrada fica a mais de %d dias de hoje."},
	"problem.tooLong":              {English: "The stay is longer than %d nights.", Portuguese: "A estadia passa de %d noites."},
	"problem.tooManyGuests":        {English: "There are more than %d guests.", Portuguese: "São mais de %d hóspedes."},
}

// text returns a label in the context's language, formatted with args.
func text(ctx context.Context, key string, args ...any) string {
	return format(lang(ctx), key, args...)
}

// format returns a label in lang, formatted with args.
func format(l, key string, args ...any) string {
	entry, ok := catalog[key]
	if !ok {
		return key
	}
	s, ok := entry[l]
	if !ok {
		s = entry[English]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// cuisineName is a restaurant's cuisine as a label in the context's
// language: in Portuguese the name the replies use, capitalised
// ("Japonesa"); a cuisine with no Portuguese name, and every cuisine in
// English, shows as the tool named it.
func cuisineName(ctx context.Context, cuisine string) string {
	if lang(ctx) != Portuguese {
		return cuisine
	}
	n := intent.CuisineName(cuisine, Portuguese)
	if n == strings.ToLower(cuisine) {
		return cuisine
	}
	r, size := utf8.DecodeRuneInString(n)
	return string(unicode.ToUpper(r)) + n[size:]
}

// cuisineInText is a cuisine's name inside a sentence: Portuguese writes
// it in lower case.
func cuisineInText(ctx context.Context, cuisine string) string {
	if lang(ctx) == Portuguese {
		return intent.CuisineName(cuisine, Portuguese)
	}
	return cuisine
}

// plural returns a counted label ("3 nights", "1 noite", "1,000 photos")
// in the context's language.
func plural(ctx context.Context, key string, n int) string {
	forms := strings.SplitN(format(lang(ctx), key), "|", 2)
	f := forms[0]
	if n != 1 && len(forms) == 2 {
		f = forms[1]
	}
	return strings.Replace(f, "%d", number(ctx, float64(n)), 1)
}

var currencySymbols = map[string]string{"EUR": "€", "USD": "$", "GBP": "£", "BRL": "R$", "JPY": "¥"}

// money writes an amount with its currency in the context's language:
// "€1,234.50" in English, "€ 1.234,50" in Portuguese. Whole amounts have no
// decimals.
func money(ctx context.Context, amount float64, currency string) string {
	sym, ok := currencySymbols[strings.ToUpper(currency)]
	if !ok {
		sym = strings.ToUpper(currency) + " "
	}
	n := number(ctx, amount)
	if lang(ctx) == Portuguese {
		return strings.TrimSpace(sym) + " " + n
	}
	return sym + n
}

// number writes a number with two decimals (none when whole) and the
// context language's separators.
func number(ctx context.Context, v float64) string {
	decimals := 2
	if v == math.Trunc(v) {
		decimals = 0
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	whole, frac, _ := strings.Cut(s, ".")
	thousands, point := ",", "."
	if lang(ctx) == Portuguese {
		thousands, point = ".", ","
	}
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(thousands)
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString(point + frac)
	}
	return b.String()
}

// decimal writes a short number (a rating, a distance) with one decimal.
func decimal(ctx context.Context, v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if lang(ctx) == Portuguese {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

var ptMonths = [...]string{"", "jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"}

// day writes an ISO date (2006-01-02, or an RFC 3339 time) as "3 May 2026"
// or "3 mai 2026"; text it cannot read is returned as it is.
func day(ctx context.Context, iso string) string {
	t, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		if t, err = time.Parse(time.RFC3339, iso); err != nil {
			return iso
		}
	}
	if lang(ctx) == Portuguese {
		return fmt.Sprintf("%d %s %d", t.Day(), ptMonths[t.Month()], t.Year())
	}
	return fmt.Sprintf("%d %s %d", t.Day(), t.Month().String()[:3], t.Year())
}

// dateRange writes two dates as "3 May 2026 – 7 May 2026".
func dateRange(ctx context.Context, start, end string) string {
	switch {
	case start == "" && end == "":
		return ""
	case end == "" || end == start:
		return day(ctx, start)
	case start == "":
		return day(ctx, end)
	}
	return day(ctx, start) + " – " + day(ctx, end)
}

// nightsBetween counts the nights between two ISO dates; 0 when either is
// unreadable or end is not after start.
func nightsBetween(start, end string) int {
	s, err1 := time.Parse(time.DateOnly, start)
	e, err2 := time.Parse(time.DateOnly, end)
	if err1 != nil || err2 != nil || !e.After(s) {
		return 0
	}
	return int(e.Sub(s).Hours() / 24)
}
