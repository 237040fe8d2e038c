package ddbtest

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Race runs call(0) … call(n-1) at once, released together, and returns
// each call's error, in call order. The calls run on n goroutines: make
// what each needs before the race (a fixture generator is not safe for
// concurrent use: build the n items first, indexed by i), since the race
// detector reports a shared one only after Ginkgo has printed the suite's
// passed specs, as "Test Suite Failed".
func Race(n int, call func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = call(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// OnlyWinner checks that exactly one call succeeded and every other failed
// with want, and returns the winner's position.
func OnlyWinner(errs []error, want error) int {
	GinkgoHelper()
	winner := -1
	for i, err := range errs {
		if err == nil {
			Expect(winner).To(Equal(-1), "calls %d and %d both succeeded", winner, i)
			winner = i
			continue
		}
		Expect(err).To(MatchError(want), "call %d", i)
	}
	Expect(winner).NotTo(Equal(-1), "no call succeeded")
	return winner
}

// Item reads the item at key consistently from the table itself rather
// than through any pattern; nil when there is none.
func (e *Env) Item(ctx context.Context, key map[string]types.AttributeValue) map[string]types.AttributeValue {
	GinkgoHelper()
	out, err := e.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(e.Table), Key: key, ConsistentRead: aws.Bool(true),
	})
	Expect(err).NotTo(HaveOccurred())
	if len(out.Item) == 0 {
		return nil
	}
	return out.Item
}

// Stored reports whether the item at key exists (see Item).
func (e *Env) Stored(ctx context.Context, key map[string]types.AttributeValue) bool {
	GinkgoHelper()
	return e.Item(ctx, key) != nil
}
