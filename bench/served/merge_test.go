package served_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/served"
)

const (
	tableARN = "arn:aws:dynamodb:us-east-1:123456789012:table/ddbh-shop"
	indexARN = tableARN + "/index/GSI1"
)

var _ = Describe("Merge", Label("unit"), func() {
	// Two load machines of one run: both called AP-01, one also AP-02.
	machineA := served.Summary{
		Counts: served.Counts{Calls: 15, Attempts: 21, ThrottledAttempts: 7, ThrottledCalls: 1},
		Patterns: []served.PatternCalls{
			{Pattern: "AP-01", Operation: "PutItem", Counts: served.Counts{Calls: 10, Attempts: 16, ThrottledAttempts: 7, ThrottledCalls: 1}},
			{Pattern: "AP-02", Operation: "Query", Counts: served.Counts{Calls: 5, Attempts: 5}},
		},
		Reasons: []served.Reason{
			{Exception: "ProvisionedThroughputExceededException", Reason: "TableWriteKeyRangeThroughputExceeded", Resource: tableARN, Count: 6},
			{Exception: "ThrottlingException", Reason: "IndexWriteAccountLimitExceeded", Resource: indexARN, Count: 1},
		},
	}
	machineB := served.Summary{
		Counts: served.Counts{Calls: 12, Attempts: 14, ThrottledAttempts: 3, ThrottledCalls: 1},
		Patterns: []served.PatternCalls{
			{Pattern: "AP-01", Operation: "PutItem", Counts: served.Counts{Calls: 8, Attempts: 10, ThrottledAttempts: 2}},
			{Pattern: "AP-01", Operation: "GetItem", Counts: served.Counts{Calls: 4, Attempts: 4, ThrottledAttempts: 1, ThrottledCalls: 1}},
		},
		Reasons: []served.Reason{
			{Exception: "ProvisionedThroughputExceededException", Reason: "TableWriteKeyRangeThroughputExceeded", Resource: tableARN, Count: 2},
			{Exception: "TransactionCanceledException", Reason: "ThrottlingError", Count: 1},
		},
	}

	It("sums rows of the same pattern and operation, and of the same exception, reason and resource, sorted, with their totals", func() {
		Expect(served.Merge(machineA, machineB)).To(Equal(served.Summary{
			Counts: served.Counts{Calls: 27, Attempts: 35, ThrottledAttempts: 10, ThrottledCalls: 2},
			Patterns: []served.PatternCalls{
				{Pattern: "AP-01", Operation: "GetItem", Counts: served.Counts{Calls: 4, Attempts: 4, ThrottledAttempts: 1, ThrottledCalls: 1}},
				{Pattern: "AP-01", Operation: "PutItem", Counts: served.Counts{Calls: 18, Attempts: 26, ThrottledAttempts: 9, ThrottledCalls: 1}},
				{Pattern: "AP-02", Operation: "Query", Counts: served.Counts{Calls: 5, Attempts: 5}},
			},
			// Most named first; a tie by exception.
			Reasons: []served.Reason{
				{Exception: "ProvisionedThroughputExceededException", Reason: "TableWriteKeyRangeThroughputExceeded", Resource: tableARN, Count: 8},
				{Exception: "ThrottlingException", Reason: "IndexWriteAccountLimitExceeded", Resource: indexARN, Count: 1},
				{Exception: "TransactionCanceledException", Reason: "ThrottlingError", Count: 1},
			},
		}))
	})

	It("gives the same summary in any order of machines", func() {
		Expect(served.Merge(machineB, machineA)).To(Equal(served.Merge(machineA, machineB)))
	})

	It("keeps one machine's summary as it was", func() {
		Expect(served.Merge(machineA)).To(Equal(machineA))
	})

	It("merges no summary into an empty one", func() {
		Expect(served.Merge()).To(Equal(served.Summary{}))
	})

	It("merges summaries read back from JSON, as load machines hand them over", func() {
		var back served.Summary
		b, err := json.Marshal(machineA)
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(b, &back)).To(Succeed())
		Expect(back).To(Equal(machineA))
		Expect(string(b)).To(ContainSubstring(`{"calls":15,"attempts":21,"throttled_attempts":7,"throttled_calls":1,"patterns":[{"pattern":"AP-01","operation":"PutItem","calls":10,`))
	})
})
