package designs

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// Backoff is how the harness waits before sending a request again, as AWS
// advises for unprocessed items and conflicts: exponentially longer waits
// with full jitter. Retry n (0, 1, ...) waits a time drawn below Base·2^n,
// or below Max when that is less (Max 0: no ceiling).
// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html (error retries and exponential backoff)
type Backoff struct {
	Base, Max time.Duration
}

// Ceiling is the longest wait before retry n.
func (b Backoff) Ceiling(n int) time.Duration {
	c := max(b.Base, 1)
	for range n {
		if c > math.MaxInt64/2 || (b.Max > 0 && c >= b.Max) {
			break
		}
		c *= 2
	}
	if b.Max > 0 {
		c = min(c, b.Max)
	}
	return c
}

// Delay draws the wait before retry n, in [0, Ceiling(n)).
func (b Backoff) Delay(n int) time.Duration { return rand.N(b.Ceiling(n)) }

// Wait waits before retry n, or until ctx ends, whose error it then
// returns. A context already ended does not wait at all.
func (b Backoff) Wait(ctx context.Context, n int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t := time.NewTimer(b.Delay(n))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
