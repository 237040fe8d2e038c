package meter

import (
	"context"
	"sync"

	"github.com/ddbharness/ddbharness/pricing"
)

// Recorder collects the observations a Client sends it, for tools and
// specs that look at calls one by one: client.Observe(rec.Observe).
type Recorder struct {
	mu  sync.Mutex
	obs []pricing.Observation
}

// Observe keeps o; it is an Observer.
func (r *Recorder) Observe(_ context.Context, o pricing.Observation) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.obs = append(r.obs, o)
}

// Take returns the observations so far and forgets them.
func (r *Recorder) Take() []pricing.Observation {
	r.mu.Lock()
	defer r.mu.Unlock()
	obs := r.obs
	r.obs = nil
	return obs
}
