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

// Again is what a caller that acts on a fault does with a pattern: under
// hostile verify, each time call hands back a fault (Faulted), unchanged
// checks the state the fault left, and call is sent again, up to
// againCalls calls; the last answer is returned, its state checked by
// unchanged too when it is still a fault, so that a spec returns on a
// fault without checking it again. The profile's counts run
// per spec and each rule fires on a spec's first calls, so a later call
// passes the faults an earlier one met (a read's throttle, a write's
// conflict past the design's retries, its cancellation for throttling)
// and the spec checks the quiet answer too: every path proven. On a quiet
// run, or when the first answer is no fault, it is call's answer.
func (e *Env) Again(call func() error, unchanged func()) error {
	GinkgoHelper()
	err := call()
	for i := 1; i < againCalls && e.Faulted(err); i++ {
		unchanged()
		err = call()
	}
	if e.Faulted(err) {
		unchanged()
	}
	return err
}

// againCalls bounds Again: the profile hands a pattern's calls at most one
// fault for each of its rules that neither the SDK nor the design retries
// (GetItem's throttle, TransactWriteItems' conflict and its throttle),
// and one call more passes them all.
const againCalls = 4
