package meter

import (
	"context"
	"hash/maphash"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/spill"
)

// shadowStripes spreads the items over this many locks, so that workers
// writing different items rarely wait for each other.
const shadowStripes = 64

// settleTimeout bounds one settling read.
const settleTimeout = 10 * time.Second

// shadow is the client's picture of the items of the tables it writes: the
// latest image of each, by table and primary key, ordered by the rule of
// order. Bench creates the table and every write goes through the client,
// so an item the shadow does not hold does not exist. It names the image
// before a write that DynamoDB does not return (transactions, batch
// writes), and the whole item behind a read that projected part of it.
//
// A run that creates items at every call makes the shadow grow with the
// calls, so an item at rest is a record (a 16-byte hash of table and key,
// where its image lies in images, its latest write event, its table) in a
// spill map: the records of items lately used in memory, the rest in a
// file, as the images are. Only an item with writes in flight keeps an
// order, with its image decoded, in memory.
type shadow struct {
	schema  ddbitem.Schema
	seeds   [2]maphash.Seed
	seq     atomic.Uint64 // numbers every write event, for order
	stripes [shadowStripes]shadowStripe
	images  *images
	settle  settler

	tmu    sync.Mutex
	tables []string // the tables the shadow has seen (a run writes one or two); a record holds the index
}

type shadowStripe struct {
	mu     sync.Mutex
	items  *spill.Map[itemHash, record]
	active map[itemHash]*order // the orders of items with writes in flight
}

// stripeRecords is how many records a stripe keeps in memory, about: the
// items of a run's last tens of thousands of writes, over all stripes.
const stripeRecords = 256

// itemHash names an item by two 64-bit hashes of its table and key: two
// items of a run sharing one has odds of about n²/2¹²⁹, none in practice.
type itemHash [2]uint64

// record is what the shadow keeps of an item at rest.
type record struct {
	image  ref
	last   uint64 // order.last
	table  uint16
	unsure bool
}

func newShadow(s ddbitem.Schema, read func(ctx context.Context, table string, key ddbitem.Item) (ddbitem.Item, error)) *shadow {
	sh := &shadow{schema: s, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, images: newImages()}
	for i := range sh.stripes {
		sh.stripes[i].items = spill.New[itemHash, record](stripeRecords)
		sh.stripes[i].active = map[itemHash]*order{}
	}
	sh.settle = settler{read: read, pending: map[string]settleItem{}, shadow: sh}
	return sh
}

// id names the item of table whose key attributes item holds; ok is false
// when the key attributes are missing (a projection without them).
func (s *shadow) id(table string, item ddbitem.Item) (string, bool) {
	key, ok := s.schema.KeyID(item)
	return table + "\x00" + key, ok
}

// table is the index of table among the shadow's tables.
func (s *shadow) table(name string) uint16 {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	for i, t := range s.tables {
		if t == name {
			return uint16(i)
		}
	}
	s.tables = append(s.tables, name)
	return uint16(len(s.tables) - 1)
}

// with calls f with the item's order under its stripe's lock, making the
// order on first use; nothing happens for an item without its key. Between
// writes the order is folded back into the item's record, its image stored
// again only when f changed it.
func (s *shadow) with(table string, key ddbitem.Item, f func(o *order)) {
	id, ok := s.id(table, key)
	if !ok {
		return
	}
	h := itemHash{maphash.String(s.seeds[0], id), maphash.String(s.seeds[1], id)}
	sh := &s.stripes[h[0]%shadowStripes]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	r, found := sh.items.Get(h)
	if !found {
		r.table = s.table(table)
	}
	o := sh.active[h]
	if o == nil {
		o = &order{image: s.images.get(r.image), last: r.last, unsure: r.unsure}
	}
	was := o.image
	f(o)
	if !sameImage(was, o.image) && !sameItem(was, o.image) {
		r.image = s.images.put(o.image)
	}
	r.last, r.unsure = o.last, o.unsure
	if o.inflight > 0 {
		sh.active[h] = o
	} else {
		delete(sh.active, h)
	}
	if found || r != (record{table: r.table}) || o.inflight > 0 { // a read of an unknown key leaves nothing to keep
		sh.items.Set(h, r)
	}
}

// sameImage reports whether a and b are one map: an image the order kept
// needs no storing again.
func sameImage(a, b ddbitem.Item) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// sameItem reports whether a and b are the same item, or both none: a read
// that found the item as stored needs no storing either.
func sameItem(a, b ddbitem.Item) bool { return (a == nil) == (b == nil) && ddbitem.Equal(a, b) }

// now is the number of the latest write event: a read sent now can be
// compared with the writes of the items it returns.
func (s *shadow) now() uint64 { return s.seq.Load() }

// begin records a write of the item at key sent.
func (s *shadow) begin(table string, key ddbitem.Item) {
	s.with(table, key, func(o *order) { o.begin(s.seq.Add(1)) })
}

// known records a write answered with the image before it.
func (s *shadow) known(table string, key, before, after ddbitem.Item) {
	s.with(table, key, func(o *order) { s.judge(table, key, o.known(s.seq.Add(1), before, after)) })
}

// saw records a write whose condition failed, with the item it saw.
func (s *shadow) saw(table string, key, item ddbitem.Item) {
	s.with(table, key, func(o *order) { s.judge(table, key, o.saw(s.seq.Add(1), item)) })
}

// lost records a write whose outcome is unknown.
func (s *shadow) lost(table string, key ddbitem.Item) {
	s.with(table, key, func(o *order) { s.judge(table, key, o.lost(s.seq.Add(1))) })
}

// assumed records a write answered without images: after(before) is what
// it left (see order.assumed).
func (s *shadow) assumed(table string, key ddbitem.Item, after func(ddbitem.Item) (ddbitem.Item, bool)) (before, now ddbitem.Item, exact bool) {
	s.with(table, key, func(o *order) {
		var unsure bool
		before, now, exact, unsure = o.assumed(s.seq.Add(1), after)
		s.judge(table, key, unsure)
	})
	return before, now, exact
}

// judge queues an item left unsure for a settling read.
func (s *shadow) judge(table string, key ddbitem.Item, unsure bool) {
	if unsure {
		s.settle.add(table, s.schema.Key(key))
	}
}

// read records an image a read sent at event sent returned (nil: the read
// named the key and found nothing). A consistent read settles the item if
// no write of it overlapped the read; any read fills in an item the shadow
// has never seen.
func (s *shadow) read(table string, key, item ddbitem.Item, consistent bool, sent uint64) {
	if key == nil {
		key = item
	}
	s.with(table, key, func(o *order) {
		switch {
		case o.image == nil && o.last == 0 && item != nil:
			o.image = item
		case consistent:
			o.read(item, sent)
		}
	})
}

// get returns the latest image of the item at key (nil: no item).
func (s *shadow) get(table string, key ddbitem.Item) (img ddbitem.Item) {
	s.with(table, key, func(o *order) { img = o.image })
	return img
}

// each calls f with every image the shadow holds for table, stripe by
// stripe; f must not call back into the shadow.
func (s *shadow) each(table string, f func(ddbitem.Item)) {
	t := s.table(table)
	for i := range s.stripes {
		sh := &s.stripes[i]
		sh.mu.Lock()
		for h, r := range sh.items.All() {
			if r.table != t {
				continue
			}
			img := s.images.get(r.image)
			if o := sh.active[h]; o != nil {
				img = o.image
			}
			if img != nil {
				f(img)
			}
		}
		sh.mu.Unlock()
	}
}

// unsure counts the items of every table whose image is unsure.
func (s *shadow) unsure() int {
	n := 0
	for i := range s.stripes {
		sh := &s.stripes[i]
		sh.mu.Lock()
		for h, r := range sh.items.All() {
			if o := sh.active[h]; r.unsure || o != nil && o.unsure {
				n++
			}
		}
		sh.mu.Unlock()
	}
	return n
}

// settler reads unsure items back, one at a time, on a goroutine of its
// own: never inside a measured call, whose latency it would add to.
type settler struct {
	shadow  *shadow
	read    func(ctx context.Context, table string, key ddbitem.Item) (ddbitem.Item, error)
	mu      sync.Mutex
	pending map[string]settleItem
	idle    chan struct{} // closed when the running worker stops; nil when none runs
	reads   atomic.Int64
}

type settleItem struct {
	table string
	key   ddbitem.Item
}

func (st *settler) add(table string, key ddbitem.Item) {
	id, _ := st.shadow.id(table, key)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.pending[id] = settleItem{table, key}
	if st.idle == nil {
		st.idle = make(chan struct{})
		go st.work(st.idle)
	}
}

// work settles pending items until none is left.
func (st *settler) work(idle chan struct{}) {
	for {
		st.mu.Lock()
		var it settleItem
		found := false
		for id, p := range st.pending {
			it, found = p, true
			delete(st.pending, id)
			break
		}
		if !found {
			st.idle = nil
			st.mu.Unlock()
			close(idle)
			return
		}
		st.mu.Unlock()
		sent := st.shadow.now()
		ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
		item, err := st.read(ctx, it.table, it.key)
		cancel()
		st.reads.Add(1)
		if err == nil {
			st.shadow.with(it.table, it.key, func(o *order) { o.read(item, sent) })
		}
	}
}

// wait returns when no item is pending, or ctx is done.
func (st *settler) wait(ctx context.Context) error {
	for {
		st.mu.Lock()
		idle := st.idle
		st.mu.Unlock()
		if idle == nil {
			return nil
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
