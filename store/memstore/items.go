package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/textfold"
)

// Items are the long-term store's items of every user, as store/items
// keeps them: checked by the same rules (items.PutItem.Check,
// items.Query.Check…), live until their time to live runs out, found by
// the words of their indexed text and ranked as PostgreSQL's ts_rank
// ranks them.
type Items struct{ s *state }

// itemsData are the items, by owner, then by namespace and key.
type itemsData struct {
	byOwner map[string]map[itemKey]*item
}

func (s *state) initItems() { s.items = itemsData{byOwner: map[string]map[itemKey]*item{}} }

// itemKey is an item's namespace and key. Labels have no NUL, so the
// namespace joined with NULs is one namespace only.
type itemKey struct{ namespace, key string }

func keyOf(namespace []string, key string) itemKey {
	return itemKey{strings.Join(namespace, "\x00"), key}
}

// item is one stored object.
type item struct {
	namespace []string
	key       string
	value     any            // a JSON object, numbers as written
	words     map[string]int // the indexed words and how often each comes; nil: not indexed
	ttl       time.Duration  // 0: lives for ever
	expires   time.Time
	bytes     int64 // what it counts against its owner's limit (items.PutItem.Size)
	created   time.Time
	updated   time.Time
}

// live reports whether the item's time to live has not run out at at.
func (it *item) live(at time.Time) bool { return it.ttl == 0 || it.expires.After(at) }

// refresh starts the item's time to live again at at.
func (it *item) refresh(at time.Time) {
	if it.ttl > 0 {
		it.expires = at.Add(it.ttl)
	}
}

func (it *item) record(score *float64) items.Item {
	return items.Item{Namespace: slices.Clone(it.namespace), Key: it.key, Value: encode(it.value),
		CreatedAt: it.created, UpdatedAt: it.updated, Score: score}
}

// OwnedItems are one user's items: every method reaches that user's only.
type OwnedItems struct {
	s  *state
	id string
}

// ForOwner returns userID's items.
func (x *Items) ForOwner(userID string) OwnedItems { return OwnedItems{x.s, userID} }

// mine are the owner's items, made when missing; the caller holds mu.
func (o OwnedItems) mine() map[itemKey]*item {
	m, ok := o.s.items.byOwner[o.id]
	if !ok {
		m = map[itemKey]*item{}
		o.s.items.byOwner[o.id] = m
	}
	return m
}

// Put stores an item, or replaces the one with its namespace and key,
// whose creation time it keeps while that one lives. Its update time
// always moves forward, by at least a millisecond. A put that would take
// the owner's live items past the limits' items or bytes is refused.
func (o OwnedItems) Put(_ context.Context, in items.PutItem) error {
	value, err := in.Check()
	if err != nil {
		return err
	}
	var words map[string]int
	if text, ok := in.IndexedText(value); ok {
		words = indexWords(text)
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if err := o.s.knownUser(o.id); err != nil {
		return err
	}
	at := o.s.now()
	k := keyOf(in.Namespace, in.Key)
	it := &item{namespace: slices.Clone(in.Namespace), key: in.Key, value: decode(in.Value), words: words,
		created: at, updated: at, bytes: in.Size()}
	if err := o.roomFor(k, it.bytes, at); err != nil {
		return err
	}
	if in.TTL > 0 {
		it.ttl = in.TTL.Truncate(time.Microsecond)
		it.refresh(at)
	}
	if old, ok := o.mine()[k]; ok {
		if old.live(at) {
			it.created = old.created
		}
		it.updated = laterOf(at, old.updated.Add(time.Millisecond))
	}
	o.mine()[k] = it
	return nil
}

// roomFor refuses a put of size bytes under k past the limits, given the
// owner's live items at at; the caller holds mu.
func (o OwnedItems) roomFor(k itemKey, size int64, at time.Time) error {
	var held quota.Usage
	var replaced *int64
	for ik, it := range o.mine() {
		if !it.live(at) {
			continue
		}
		held.Items++
		held.Bytes += it.bytes
		if ik == k {
			replaced = &it.bytes
		}
	}
	return o.s.limits.CheckItems(held, held.AfterPut(size, replaced))
}

func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Get is the item with this namespace and key; ok is false when there is
// none (or its time ran out). With refresh, its time to live starts
// again.
func (o OwnedItems) Get(_ context.Context, namespace []string, key string, refresh bool) (items.Item, bool, error) {
	if err := (items.Ref{Namespace: namespace, Key: key}).Check(); err != nil {
		return items.Item{}, false, err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	at := o.s.now()
	it, ok := o.mine()[keyOf(namespace, key)]
	if !ok || !it.live(at) {
		return items.Item{}, false, nil
	}
	if refresh {
		it.refresh(at)
	}
	return it.record(nil), true, nil
}

// GetEach reads the items refs name that exist and live, in no
// particular order, without refreshing them.
func (o OwnedItems) GetEach(_ context.Context, refs ...items.Ref) ([]items.Item, error) {
	for _, r := range refs {
		if err := r.Check(); err != nil {
			return nil, err
		}
	}
	if len(refs) == 0 {
		return nil, nil
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	at := o.s.now()
	found := map[itemKey]*item{}
	for _, r := range refs {
		k := keyOf(r.Namespace, r.Key)
		if it, ok := o.mine()[k]; ok && it.live(at) {
			found[k] = it
		}
	}
	out := []items.Item{}
	for _, it := range found {
		out = append(out, it.record(nil))
	}
	return out, nil
}

// Delete removes the item with this namespace and key; deleting a missing
// item is not an error.
func (o OwnedItems) Delete(_ context.Context, namespace []string, key string) error {
	if err := (items.Ref{Namespace: namespace, Key: key}).Check(); err != nil {
		return err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	delete(o.mine(), keyOf(namespace, key))
	return nil
}

// hit is an item a search found, with its rank.
type hit struct {
	*item
	score *float64
}

// Search finds the owner's live items under q's prefix that meet its
// filter: with a text, those with any of its words (or a word beginning
// with one), best ranked first; without, the most recently updated first.
func (o OwnedItems) Search(_ context.Context, q items.Query) ([]items.Item, error) {
	limit, conds, err := q.Check()
	if err != nil {
		return nil, err
	}
	terms := q.Terms()
	if q.FindsNothing() {
		return []items.Item{}, nil
	}
	operands := make([]any, len(conds))
	for i, c := range conds {
		operands[i] = decode(c.Operand)
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	at := o.s.now()
	var list []hit
	for _, it := range o.mine() {
		if !it.live(at) || !hasPrefix(it.namespace, q.Prefix) || !meets(it.value, conds, operands) {
			continue
		}
		f := hit{item: it}
		if len(terms) > 0 {
			score, ok := rank(it.words, terms)
			if !ok {
				continue
			}
			f.score = &score
		}
		list = append(list, f)
	}
	slices.SortFunc(list, func(a, b hit) int {
		c := 0
		if a.score != nil && b.score != nil {
			c = -cmp.Compare(*a.score, *b.score)
		}
		return cmp.Or(c, b.updated.Compare(a.updated), slices.Compare(a.namespace, b.namespace), cmp.Compare(a.key, b.key))
	})
	out := []items.Item{}
	for _, f := range page(list, limit, q.Offset) {
		if q.Refresh {
			f.refresh(at)
		}
		out = append(out, f.record(f.score))
	}
	return out, nil
}

// hasPrefix reports whether a namespace starts with prefix.
func hasPrefix(namespace, prefix []string) bool {
	return len(namespace) >= len(prefix) && slices.Equal(namespace[:len(prefix)], prefix)
}

// Namespaces lists the namespaces that hold the owner's live items, in
// order: those that start with q's prefix and end with its suffix (a label
// "*" matches any), cut to q's depth.
func (o OwnedItems) Namespaces(_ context.Context, q items.NamespaceQuery) ([][]string, error) {
	limit, err := q.Check()
	if err != nil {
		return nil, err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	at := o.s.now()
	set := map[string][]string{}
	for _, it := range o.mine() {
		ns := it.namespace
		if !it.live(at) || !labelsMatch(ns, q.Prefix, 0) || !labelsMatch(ns, q.Suffix, len(ns)-len(q.Suffix)) {
			continue
		}
		if q.MaxDepth > 0 && len(ns) > q.MaxDepth {
			ns = ns[:q.MaxDepth]
		}
		set[strings.Join(ns, "\x00")] = ns
	}
	list := slices.SortedFunc(maps.Values(set), slices.Compare)
	out := [][]string{}
	for _, ns := range page(list, limit, q.Offset) {
		out = append(out, slices.Clone(ns))
	}
	return out, nil
}

// labelsMatch reports whether ns has the labels of want from index at on,
// a label "*" matching any.
func labelsMatch(ns, want []string, at int) bool {
	if at < 0 || len(ns) < len(want) {
		return false
	}
	for i, l := range want {
		if l != "*" && l != ns[at+i] {
			return false
		}
	}
	return true
}

// Full-text search. PostgreSQL keeps to_tsvector('simple', text) of an
// item's folded text and ranks it with ts_rank; here the words are those
// textfold tells apart (its parser keeps a few more tokens whole:
// hyphenated words, hosts, e-mail addresses, decimals), and the rank is
// ts_rank's own arithmetic.

// Bounds of PostgreSQL's text search.
const (
	maxWordLen   = 2047 // bytes of a word it indexes; longer ones are left out
	maxPositions = 255  // occurrences of one word it counts
)

// indexWords are the words of folded text, with how often each comes.
func indexWords(text string) map[string]int {
	words := map[string]int{}
	for _, w := range textfold.Words(text) {
		if len(w) <= maxWordLen && words[w] < maxPositions {
			words[w]++
		}
	}
	return words
}

// rank is ts_rank(search, query) for a query of terms, each a prefix
// ('term':*), joined by |, in float4 arithmetic as PostgreSQL does it:
// every occurrence weighs 0.1 (the weight D of words without a label),
// the nth occurrence of a word counting 1/n² of it; each word that a term
// begins adds its sum divided by π²/6, and the total is divided by the
// number of distinct terms. ok is false when no term begins any word.
func rank(words map[string]int, terms []string) (float64, bool) {
	const weight = float32(0.1)
	terms = slices.Compact(slices.Sorted(slices.Values(terms)))
	sorted := slices.Sorted(maps.Keys(words))
	var res float32
	matched := false
	for _, t := range terms {
		for _, w := range sorted {
			if !strings.HasPrefix(w, t) {
				continue
			}
			matched = true
			var sum float32
			for j := 1; j <= words[w]; j++ {
				sum += weight / float32(j*j)
			}
			res = float32(float64(res) + float64(float32(weight+sum)-weight)/1.64493406685)
		}
	}
	res /= float32(len(terms))
	return float64(res), matched
}

// Filters compare an item's top-level members with their operands as
// jsonb values compare.

// meets reports whether an item's value meets every condition, whose
// operands are decoded already.
func meets(value any, conds []items.Condition, operands []any) bool {
	obj, _ := value.(map[string]any)
	for i, c := range conds {
		member, ok := obj[c.Field]
		if !ok || !holds(c.Op, compareTop(member, operands[i])) {
			return false
		}
	}
	return true
}

// holds reports whether a comparison's result satisfies op.
func holds(op string, c int) bool {
	switch op {
	case items.OpEq:
		return c == 0
	case items.OpNe:
		return c != 0
	case items.OpGt:
		return c > 0
	case items.OpGte:
		return c >= 0
	case items.OpLt:
		return c < 0
	case items.OpLte:
		return c <= 0
	}
	return false
}

// The order of jsonb's kinds of value.
const (
	kindNull = iota
	kindString
	kindNumber
	kindBool
	kindArray
	kindObject
)

func kindOf(v any) int {
	switch v.(type) {
	case string:
		return kindString
	case json.Number:
		return kindNumber
	case bool:
		return kindBool
	case []any:
		return kindArray
	case map[string]any:
		return kindObject
	}
	return kindNull
}

// compareTop compares two whole jsonb values. A scalar is kept as an array
// of one element marked raw, so against an array it compares by length
// first (more elements are greater), and before an array of one.
func compareTop(a, b any) int {
	ka, kb := kindOf(a), kindOf(b)
	scalarA, scalarB := ka < kindArray, kb < kindArray
	switch {
	case scalarA && kb == kindArray:
		return cmp.Or(cmp.Compare(1, len(b.([]any))), -1)
	case ka == kindArray && scalarB:
		return cmp.Or(cmp.Compare(len(a.([]any)), 1), 1)
	}
	return compareJSON(a, b)
}

// compareJSON is jsonb's order: by kind (null, string, number, boolean,
// array, object); arrays by length, then element by element; objects by
// their number of members, then member by member in jsonb's order of
// keys (shorter first), key before value; strings by their bytes;
// numbers by value.
func compareJSON(a, b any) int {
	ka, kb := kindOf(a), kindOf(b)
	if ka != kb {
		return cmp.Compare(ka, kb)
	}
	switch av := a.(type) {
	case string:
		return strings.Compare(av, b.(string))
	case json.Number:
		return compareNumbers(av, b.(json.Number))
	case bool:
		bv := b.(bool)
		return cmp.Compare(boolInt(av), boolInt(bv))
	case []any:
		bv := b.([]any)
		if c := cmp.Compare(len(av), len(bv)); c != 0 {
			return c
		}
		for i := range av {
			if c := compareJSON(av[i], bv[i]); c != 0 {
				return c
			}
		}
	case map[string]any:
		bv := b.(map[string]any)
		if c := cmp.Compare(len(av), len(bv)); c != 0 {
			return c
		}
		ak, bk := jsonbKeys(av), jsonbKeys(bv)
		for i := range ak {
			if c := cmp.Or(strings.Compare(ak[i], bk[i]), compareJSON(av[ak[i]], bv[bk[i]])); c != 0 {
				return c
			}
		}
	}
	return 0
}

// jsonbKeys are an object's keys in the order jsonb keeps them: shorter
// first, then by their bytes.
func jsonbKeys(m map[string]any) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	})
}

func compareNumbers(a, b json.Number) int {
	x, okA := new(big.Rat).SetString(string(a))
	y, okB := new(big.Rat).SetString(string(b))
	if !okA || !okB {
		return strings.Compare(string(a), string(b))
	}
	return x.Cmp(y)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
