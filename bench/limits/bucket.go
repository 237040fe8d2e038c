package limits

// bucket is a token bucket of capacity units that may go into debt: a call
// is let in while the bucket holds any units, and what it consumed is taken
// when it completes, however much that is. Times are Unix nanoseconds.
type bucket struct {
	rate   float64 // units added per second
	size   float64 // the most it holds
	tokens float64
	at     int64 // when tokens was last brought up to date
}

// newBucket returns a full bucket.
func newBucket(rate, size float64, now int64) bucket {
	return bucket{rate: rate, size: size, tokens: size, at: now}
}

// refill brings the bucket up to now.
func (b *bucket) refill(now int64) {
	if now <= b.at {
		return
	}
	b.tokens = min(b.size, b.tokens+b.rate*float64(now-b.at)/1e9)
	b.at = now
}

// open reports whether the bucket lets a call in at now.
func (b *bucket) open(now int64) bool {
	b.refill(now)
	return b.tokens > 0
}

// take debits u units at now.
func (b *bucket) take(now int64, u float64) {
	b.refill(now)
	b.tokens -= u
}

// resize changes the rate (and the size, a second of the rate), keeping the
// units held.
func (b *bucket) resize(now int64, rate float64) {
	b.refill(now)
	b.rate, b.size = rate, rate
	b.tokens = min(b.tokens, b.size)
}
