package ddbtest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// OnlyWinner is OnlyWinner for a race of a design's patterns: under
// hostile verify a call may also lose to a fault it handed back
// (Faulted), having written nothing, which the spec's own checks of the
// table then prove. On a quiet run it is OnlyWinner exactly.
func (e *Env) OnlyWinner(errs []error, want error) int {
	GinkgoHelper()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil:
			Expect(winner).To(Equal(-1), "calls %d and %d both succeeded", winner, i)
			winner = i
		case !e.Faulted(err):
			Expect(err).To(MatchError(want), "call %d", i)
		}
	}
	Expect(winner).NotTo(Equal(-1), "no call succeeded")
	return winner
}

// Answers checks a read pattern's answer, got and err as the pattern
// returned them: want, or, under hostile verify, a fault handed back as
// an error (a read stores nothing, so there is no state to check beside
// it).
//
//	env.Answers(table.GetUser(ctx, id))(want)
func (e *Env) Answers(got any, err error) func(want any) {
	return func(want any) {
		GinkgoHelper()
		if e.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))
	}
}

// Refuses checks a pattern's outcome: outcome, or, under hostile verify,
// a fault handed back as an error.
func (e *Env) Refuses(err, outcome error) {
	GinkgoHelper()
	if !e.Faulted(err) {
		Expect(err).To(MatchError(outcome))
	}
}

// Again is what a caller that acts on a fault does with a pattern that
// reads before it writes: under hostile verify, when call hands back a
// fault (Faulted), unchanged checks the state the fault left, then call
// is sent once more and its answer returned. The profile's counts run per
// spec, so the second call's read passes where the first's was
// throttled, and its write meets the write's fault: both paths proven. On
// a quiet run, or when the first answer is no fault, it is call's answer.
func (e *Env) Again(call func() error, unchanged func()) error {
	GinkgoHelper()
	err := call()
	if !e.Faulted(err) {
		return err
	}
	unchanged()
	return call()
}
