package hostile

import (
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
	"github.com/ddbharness/ddbharness/designs"
)

// Profile is the standard profile, one rule a line, aimed afresh at each
// spec's body (counts start at zero), so that a spec's first call of each
// operation meets its fault whatever ran before it:
//
//   - the first three GetItem attempts are throttled, past the SDK's
//     standard three attempts: the pattern meets a throttle it must hand
//     back as an error, not as an answer (an item not found);
//   - the first Query, Scan, UpdateItem and DeleteItem meet a throttle, a
//     500 or a 503, which the SDK retries: the pattern must answer as on a
//     quiet DynamoDB;
//   - the first PutItem is answered 500 before it is applied, which the
//     SDK retries (a reset after it was applied is left out: a
//     conditional create cannot tell its own landed write from another
//     caller's without a token of its own in the item);
//   - the first TransactWriteItems and each of the design's resends of it
//     are cancelled for a conflict, which outlasts the design's retries
//     (designs.ConflictRetries): the pattern hands back ErrTransactionConflict
//     having written nothing; the next is cancelled for throttling
//     (ThrottlingError), which neither the SDK nor the design retries:
//     the pattern hands it back, never a domain outcome such as a missing
//     item, and writes nothing;
//   - the first BatchWriteItem and BatchGetItem hand back part of the
//     batch, which the design sends again;
//   - every fourth call of any operation left waits 2 ms.
var Profile = []string{
	"op=GetItem first=3 error=ThrottlingException",
	"op=Query first=1 error=ProvisionedThroughputExceededException",
	"op=Scan first=1 error=InternalServerError",
	"op=UpdateItem first=1 error=ServiceUnavailable",
	"op=DeleteItem first=1 error=RequestLimitExceeded",
	"op=PutItem first=1 error=InternalServerError",
	fmt.Sprintf("op=TransactWriteItems first=%d error=TransactionConflict", designs.ConflictRetries+1),
	"op=TransactWriteItems first=1 error=ThrottlingError",
	"op=BatchWriteItem first=1 error=UnprocessedItems",
	"op=BatchGetItem first=1 error=UnprocessedKeys",
	"every=4 latency=2ms",
}

// Rules is Profile read.
func Rules() ([]fault.Rule, error) {
	return fault.ParseLines("the hostile profile", strings.Join(Profile, "\n"))
}

// Describe is the profile as verify prints it: the seed, then each rule.
func Describe(seed uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "verify: hostile: each spec's body meets these fault rules (counts start at each spec; fault seed %d):\n", seed)
	for _, r := range Profile {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	return b.String()
}
