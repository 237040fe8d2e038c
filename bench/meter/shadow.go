package bench

import (
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// shadowShards spreads the image cache over this many locks, so that
// workers writing different items rarely wait for each other.
const shadowShards = 64

// shadow is the instrumented client's picture of the items of the tables it
// writes: the last known image of each, by table and primary key. The
// engine creates the table and every write goes through the client, so an
// item the shadow does not hold does not exist. It lets the client name the
// image before a write that DynamoDB does not return (transactions, batch
// writes), and the whole item behind a read that projected part of it.
type shadow struct {
	schema designs.Schema // the table's keys
	seed   maphash.Seed
	shards [shadowShards]shadowShard
}

type shadowShard struct {
	mu    sync.Mutex
	items map[string]*shadowItem
}

// shadowMemory is how many of an item's recent moves the shadow keeps to
// put out-of-order responses back in order.
const shadowMemory = 8

// shadowItem is one item's last known image (nil: no item) and its recent
// moves. Two writes of one item in flight at once can come back in the
// other order than DynamoDB applied them: a write that turned A into B,
// whose response arrives after that of an overlapping write that turned B
// into C, is old news, and B must not replace C. Only overlapping calls can
// be reordered so, which keeps an image that recurs later (an empty set
// filled and emptied again) from looking stale. Overlapping moves that
// form a cycle (A→B and B→A at once) are ambiguous from images alone; the
// later response wins, and the next write's own old image corrects it.
type shadowItem struct {
	image capacity.Image
	moves []move
}

// move is one write of the item: fingerprints of its image before and
// after, and when the call that made it was in flight.
type move struct {
	from, to   uint64
	start, end time.Time
}

// superseded reports whether a call in flight after since moved the item
// away from the image with fingerprint fp, other than by the move from
// "from" (known) that led to it.
func (it *shadowItem) superseded(fp uint64, since time.Time, from uint64, known bool) bool {
	for _, m := range it.moves {
		if m.end.After(since) && m.from == fp && (!known || m.to != from) {
			return true
		}
	}
	return false
}

// moved records the move of a call in flight from start until now, and
// makes its result current unless an overlapping call already moved past
// it.
func (it *shadowItem) moved(s *shadow, before, after capacity.Image, start time.Time) {
	from, to := s.fingerprint(before), s.fingerprint(after)
	stale := it.superseded(to, start, from, true)
	it.moves = append(it.moves, move{from: from, to: to, start: start, end: time.Now()})
	if len(it.moves) > shadowMemory {
		it.moves = it.moves[1:]
	}
	if !stale {
		it.image = after
	}
}

func newShadow(schema designs.Schema) *shadow {
	s := &shadow{schema: schema, seed: maphash.MakeSeed()}
	for i := range s.shards {
		s.shards[i].items = map[string]*shadowItem{}
	}
	return s
}

// id names the item of table whose key attributes item holds; ok is false
// when the key attributes are missing (a projection without them).
func (s *shadow) id(table string, item capacity.Image) (id string, ok bool) {
	key, ok := s.schema.KeyID(item)
	return table + "\x00" + key, ok
}

func (s *shadow) shard(id string) *shadowShard {
	return &s.shards[maphash.String(s.seed, id)%shadowShards]
}

// get returns the last known image of the item at key (nil: no item).
func (s *shadow) get(table string, key capacity.Image) capacity.Image {
	id, ok := s.id(table, key)
	if !ok {
		return nil
	}
	sh := s.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if it := sh.items[id]; it != nil {
		return it.image
	}
	return nil
}

// swap stores image (nil: the item is gone) for the item at key and
// returns the image it replaces.
func (s *shadow) swap(table string, key, image capacity.Image) (before capacity.Image) {
	before, _ = s.apply(table, key, func(capacity.Image) capacity.Image { return image })
	return before
}

// apply replaces the image of the item at key by change(old), atomically, so
// that concurrent writes of one item chain their images instead of losing
// one another's.
func (s *shadow) apply(table string, key capacity.Image, change func(old capacity.Image) capacity.Image) (before, after capacity.Image) {
	id, ok := s.id(table, key)
	if !ok {
		return nil, change(nil)
	}
	sh := s.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	it := sh.item(id)
	before = it.image
	after = nilIfEmpty(change(before))
	now := time.Now()
	it.moved(s, before, after, now) // chained on the current image: in order by construction
	return before, after
}

// record stores a write whose image before DynamoDB itself returned (a
// single-item write asked for ALL_OLD): the move is known exactly, and one
// that arrives after a later move of the same item leaves that one current.
// start is when the call was sent.
func (s *shadow) record(table string, key, before, after capacity.Image, start time.Time) {
	id, ok := s.id(table, key)
	if !ok {
		return
	}
	sh := s.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.item(id).moved(s, nilIfEmpty(before), nilIfEmpty(after), start)
}

// item returns the entry of id, made on first use; the shard is locked.
func (sh *shadowShard) item(id string) *shadowItem {
	it := sh.items[id]
	if it == nil {
		it = &shadowItem{}
		sh.items[id] = it
	}
	return it
}

// fingerprint identifies an image (nil: no item) by its content: attribute
// names in order, values with their types.
func (s *shadow) fingerprint(img capacity.Image) uint64 {
	var h maphash.Hash
	h.SetSeed(s.seed)
	if img == nil {
		h.WriteByte(0)
		return h.Sum64()
	}
	writeValue(&h, &types.AttributeValueMemberM{Value: img})
	return h.Sum64()
}

// writeValue hashes one attribute value canonically: map keys sorted, set
// members sorted, every value tagged with its type.
func writeValue(h *maphash.Hash, v types.AttributeValue) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		h.WriteString("S" + v.Value + "\x00")
	case *types.AttributeValueMemberN:
		h.WriteString("N" + v.Value + "\x00")
	case *types.AttributeValueMemberB:
		h.WriteString("B")
		h.Write(v.Value)
		h.WriteByte(0)
	case *types.AttributeValueMemberBOOL:
		h.WriteString(fmt.Sprintf("T%t", v.Value))
	case *types.AttributeValueMemberNULL:
		h.WriteString("0")
	case *types.AttributeValueMemberSS:
		h.WriteString("SS" + strings.Join(slices.Sorted(slices.Values(v.Value)), "\x00") + "\x01")
	case *types.AttributeValueMemberNS:
		h.WriteString("NS" + strings.Join(slices.Sorted(slices.Values(v.Value)), "\x00") + "\x01")
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(v.Value))
		for i, b := range v.Value {
			bs[i] = string(b)
		}
		slices.Sort(bs)
		h.WriteString("BS" + strings.Join(bs, "\x00") + "\x01")
	case *types.AttributeValueMemberL:
		h.WriteString("L[")
		for _, e := range v.Value {
			writeValue(h, e)
		}
		h.WriteString("]")
	case *types.AttributeValueMemberM:
		h.WriteString("M{")
		for _, k := range slices.Sorted(maps.Keys(v.Value)) {
			h.WriteString(k + "\x00")
			writeValue(h, v.Value[k])
		}
		h.WriteString("}")
	}
}

// learn records an image a read sent at start returned. A strongly
// consistent read is current and replaces what the shadow holds, unless a
// write in flight with it already moved the item on; an eventually
// consistent one may be stale, so it only fills a gap.
func (s *shadow) learn(table string, item capacity.Image, consistent bool, start time.Time) {
	id, ok := s.id(table, item)
	if !ok || len(item) == 0 {
		return
	}
	sh := s.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	it := sh.items[id]
	switch {
	case it == nil:
		sh.items[id] = &shadowItem{image: item}
	case consistent && !it.superseded(s.fingerprint(item), start, 0, false):
		it.image = item // a read that a later write has not already moved past
	}
}

// overlapped reports whether another call on the item at key finished
// while one sent at start was in flight: then DynamoDB may have applied the
// two in the other order than the shadow would chain them.
func (s *shadow) overlapped(table string, key capacity.Image, start time.Time) bool {
	id, ok := s.id(table, key)
	if !ok {
		return false
	}
	sh := s.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	it := sh.items[id]
	return it != nil && slices.ContainsFunc(it.moves, func(m move) bool { return m.end.After(start) })
}

// resync sets the item at key to what a consistent read sent at start
// found (nil: no item), unless a write in flight with the read moved it on.
func (s *shadow) resync(table string, key, item capacity.Image, start time.Time) {
	id, ok := s.id(table, key)
	if !ok {
		return
	}
	sh := s.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	it := sh.item(id)
	if !it.superseded(s.fingerprint(nilIfEmpty(item)), start, 0, false) {
		it.image = nilIfEmpty(item)
	}
}

// each calls f with every image the shadow holds for table, shard by
// shard; f must not call back into the shadow.
func (s *shadow) each(table string, f func(capacity.Image)) {
	prefix := table + "\x00"
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for id, it := range sh.items {
			if strings.HasPrefix(id, prefix) && it.image != nil {
				f(it.image)
			}
		}
		sh.mu.Unlock()
	}
}
