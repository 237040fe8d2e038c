package cost

import (
	"context"
	"fmt"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// maxBurst is how many calls the pacer may ask for at one instant before
// calls takes it for a pacer with no rate: a paced schedule moves on
// between calls, one that never does would count forever.
const maxBurst = 1 << 20

// checkEvery is how many calls calls counts between looks at ctx.
const checkEvery = 1 << 16

// calls counts the calls pacer asks for in a phase of d, as the engine's
// schedule makes them: each phase (warm-up, then measuring) paces from its
// own start, a call is due the pacer's wait after the previous one, and the
// phase ends at the first call due at d or later. So a constant 100 a
// second sends 999 calls in 10 s: the first is due at 10 ms, the last at
// 9.99 s.
func calls(ctx context.Context, pacer vegeta.Pacer, d time.Duration) (int64, error) {
	if unbounded(pacer) {
		return 0, unpaced(pacer)
	}
	var at time.Duration // the due time of the previous call
	still := 0           // calls due at at so far
	for hits := uint64(0); ; hits++ {
		if hits%checkEvery == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		wait, stop := pacer.Pace(at, hits)
		if stop || at+wait >= d {
			return int64(hits), nil
		}
		if wait > 0 {
			at += wait
			still = 0
		} else if still++; still > maxBurst {
			return 0, unpaced(pacer)
		}
	}
}

// unbounded reports whether vegeta reads the pacer as "as fast as the
// workers go": a constant or linear pacer with no frequency.
func unbounded(p vegeta.Pacer) bool {
	switch c := p.(type) {
	case vegeta.ConstantPacer:
		return c.Freq == 0 || c.Per == 0
	case *vegeta.ConstantPacer:
		return c.Freq == 0 || c.Per == 0
	case vegeta.LinearPacer:
		return c.StartAt.Freq == 0 || c.StartAt.Per == 0
	case *vegeta.LinearPacer:
		return c.StartAt.Freq == 0 || c.StartAt.Per == 0
	}
	return false
}

func unpaced(p vegeta.Pacer) error {
	return fmt.Errorf("pacer %v: %w: the run would call as fast as DynamoDB answers, so its calls cannot be counted; the estimate needs a paced scenario, or a constant rate (--rate)",
		p, ErrUnpaced)
}
