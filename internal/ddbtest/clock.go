package ddbtest

import (
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Clock is a clock specs move by hand: under throttling (package
// bench/emulate), a drained partition then stays drained across the SDK's
// retries, and refills when the spec says.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at a fixed instant.
func NewClock() *Clock { return &Clock{now: time.Unix(1_800_000_000, 0)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// QuickRetries keeps the SDK's standard retryer (3 attempts, its retry
// quota) with a 1 ms backoff, so that throttled specs do not wait seconds:
// dynamodb.New(db.Options(), ddbtest.QuickRetries).
func QuickRetries(o *dynamodb.Options) { quickRetries(func() {})(o) }

// Backoff is QuickRetries whose backoff also moves the clock by d: each
// retry is sent d later on the emulator's clock.
func (c *Clock) Backoff(d time.Duration) func(*dynamodb.Options) {
	return quickRetries(func() { c.Add(d) })
}

// quickRetries is the standard retryer with a 1 ms backoff that first
// calls backingOff.
func quickRetries(backingOff func()) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) {
				backingOff()
				return time.Millisecond, nil
			})
		})
	}
}
