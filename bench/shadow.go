package bench

import (
	"hash/maphash"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
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
	pk, sk string // the table's key attributes
	seed   maphash.Seed
	shards [shadowShards]shadowShard
}

type shadowShard struct {
	mu    sync.Mutex
	items map[string]capacity.Image
}

func newShadow(pk, sk string) *shadow {
	s := &shadow{pk: pk, sk: sk, seed: maphash.MakeSeed()}
	for i := range s.shards {
		s.shards[i].items = map[string]capacity.Image{}
	}
	return s
}

// id names the item of table whose key attributes item holds; ok is false
// when the key attributes are missing (a projection without them).
func (s *shadow) id(table string, item capacity.Image) (id string, ok bool) {
	var b strings.Builder
	b.Grow(len(table) + 64)
	b.WriteString(table)
	if !writeKeyPart(&b, item[s.pk]) {
		return "", false
	}
	if s.sk != "" && !writeKeyPart(&b, item[s.sk]) {
		return "", false
	}
	return b.String(), true
}

// writeKeyPart appends one key attribute, tagged with its type so that the
// string "1" and the number 1 stay apart.
func writeKeyPart(b *strings.Builder, v types.AttributeValue) bool {
	b.WriteByte(0)
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		b.WriteByte('S')
		b.WriteString(v.Value)
	case *types.AttributeValueMemberN:
		b.WriteByte('N')
		b.WriteString(v.Value)
	case *types.AttributeValueMemberB:
		b.WriteByte('B')
		b.Write(v.Value)
	default:
		return false
	}
	return true
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
	return sh.items[id]
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
	before = sh.items[id]
	after = change(before)
	if len(after) == 0 {
		delete(sh.items, id)
		return before, nil
	}
	sh.items[id] = after
	return before, after
}

// learn records an image a read returned. A strongly consistent read is
// current and replaces what the shadow holds; an eventually consistent one
// may be stale, so it only fills a gap.
func (s *shadow) learn(table string, item capacity.Image, consistent bool) {
	id, ok := s.id(table, item)
	if !ok || len(item) == 0 {
		return
	}
	sh := s.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if _, known := sh.items[id]; consistent || !known {
		sh.items[id] = item
	}
}

// each calls f with every image the shadow holds for table, shard by
// shard; f must not call back into the shadow.
func (s *shadow) each(table string, f func(capacity.Image)) {
	prefix := table + "\x00"
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for id, img := range sh.items {
			if strings.HasPrefix(id, prefix) {
				f(img)
			}
		}
		sh.mu.Unlock()
	}
}
