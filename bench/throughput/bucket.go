package throughput

// Bucket is a token bucket of capacity units that may go into debt: a call
// is let in while the bucket holds any units, and what it consumed is taken
// when it completes, however much that is. Times are Unix nanoseconds.
type Bucket struct {
	rate   float64 // units added per second
	size   float64 // the most it holds
	tokens float64
	at     int64 // when tokens was last brought up to date
}

// NewBucket returns a full bucket.
func NewBucket(rate, size float64, now int64) Bucket {
	return Bucket{rate: rate, size: size, tokens: size, at: now}
}

// refill brings the bucket up to now.
func (b *Bucket) refill(now int64) {
	if now <= b.at {
		return
	}
	b.tokens = min(b.size, b.tokens+b.rate*float64(now-b.at)/1e9)
	b.at = now
}

// Open reports whether the bucket lets a call in at now.
func (b *Bucket) Open(now int64) bool {
	b.refill(now)
	return b.tokens > 0
}

// Take debits u units at now. A negative u gives them back, up to the
// bucket's size: units held by a call in flight while the bucket refilled
// to full were never missing.
func (b *Bucket) Take(now int64, u float64) {
	b.refill(now)
	b.tokens -= u
	if u < 0 {
		b.tokens = min(b.tokens, b.size)
	}
}

// Rate is the units the bucket adds per second.
func (b *Bucket) Rate() float64 { return b.rate }

// resize changes the rate (and the size, a second of the rate), keeping the
// units held.
func (b *Bucket) resize(now int64, rate float64) {
	b.refill(now)
	b.rate, b.size = rate, rate
	b.tokens = min(b.tokens, b.size)
}
