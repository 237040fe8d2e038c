package report

import (
	"bytes"
	"testing"

	"github.com/ddbharness/ddbharness/bench/served"
)

const servedTable = "arn:aws:dynamodb:us-east-1:123456789012:table/ddbh-invoicing-bench-1"

// servedSample is two load machines' answers from DynamoDB, merged: AP-08
// retried past most refusals, AP-03's transactions cancelled at once, a
// call outside a pattern refused once, and AP-06 never refused.
func servedSample() served.Summary {
	return served.Merge(
		served.Summary{
			Patterns: []served.PatternCalls{
				{Pattern: "AP-08", Operation: "UpdateItem", Counts: served.Counts{Calls: 8, Attempts: 15, ThrottledAttempts: 8, ThrottledCalls: 1}},
				{Pattern: "AP-06", Operation: "Query", Counts: served.Counts{Calls: 20, Attempts: 20}},
			},
			Reasons: []served.Reason{
				{Exception: "ProvisionedThroughputExceededException", Reason: "TableWriteKeyRangeThroughputExceeded", Resource: servedTable, Count: 8},
			},
		},
		served.Summary{
			Patterns: []served.PatternCalls{
				{Pattern: "AP-08", Operation: "UpdateItem", Counts: served.Counts{Calls: 4, Attempts: 8, ThrottledAttempts: 6, ThrottledCalls: 2}},
				{Pattern: "AP-03", Operation: "TransactWriteItems", Counts: served.Counts{Calls: 12, Attempts: 12, ThrottledAttempts: 4, ThrottledCalls: 4}},
				{Pattern: "", Operation: "GetItem", Counts: served.Counts{Calls: 1, Attempts: 2, ThrottledAttempts: 1}},
			},
			Reasons: []served.Reason{
				{Exception: "ProvisionedThroughputExceededException", Reason: "TableWriteKeyRangeThroughputExceeded", Resource: servedTable, Count: 6},
				{Exception: "TransactionCanceledException", Reason: "ThrottlingError", Count: 4},
				{Exception: "RequestLimitExceeded", Count: 1},
			},
		})
}

func TestServedShowsWhatDynamoDBAnswered(t *testing.T) {
	s := servedSample()
	var b bytes.Buffer
	WriteServed(&b, &s)
	want := "## Throttling, as the service answered\n\n" +
		"Counted from the error the SDK parsed from each attempt's answer, before its retryer decided (a transaction cancelled for throttling is not retried): 19 of 57 attempts were throttled (33.3%); 7 of 45 calls ended throttled (15.6%). Patterns with no throttled attempt are left out.\n\n" +
		"| Pattern | Operation | Calls | Attempts | Throttled attempts | Ended throttled |\n" +
		"|---|---|---:|---:|---:|---:|\n" +
		"| — | GetItem | 1 | 2 | 1 | 0 (0.0%) |\n" +
		"| AP-03 | TransactWriteItems | 12 | 12 | 4 | 4 (33.3%) |\n" +
		"| AP-08 | UpdateItem | 12 | 23 | 14 | 3 (25.0%) |\n\n" +
		"What DynamoDB named. A throttled attempt names each of its reasons once, or none; a transaction cancelled for capacity names, for each action refused, its cancellation code and no resource.\n\n" +
		"| Exception | Reason | Resource | Times named |\n" +
		"|---|---|---|---:|\n" +
		"| ProvisionedThroughputExceededException | TableWriteKeyRangeThroughputExceeded | `" + servedTable + "` | 14 |\n" +
		"| TransactionCanceledException | ThrottlingError | — | 4 |\n" +
		"| RequestLimitExceeded | — | — | 1 |\n\n"
	if got := b.String(); got != want {
		t.Errorf("WriteServed(merged sample):\ngot:\n%s\nwant:\n%s", got, want)
	}
	lacks(t, "served section", b.String(), "AP-06") // never refused: no row
}

func TestServedWithNothingThrottledSaysSoInOneSentence(t *testing.T) {
	s := served.Summary{Counts: served.Counts{Calls: 30, Attempts: 30},
		Patterns: []served.PatternCalls{{Pattern: "AP-06", Operation: "Query", Counts: served.Counts{Calls: 30, Attempts: 30}}}}
	var b bytes.Buffer
	WriteServed(&b, &s)
	want := "## Throttling, as the service answered\n\nNo attempt was throttled: DynamoDB refused none of the 30 attempts of 30 calls for capacity.\n\n"
	if got := b.String(); got != want {
		t.Errorf("WriteServed(nothing throttled) = %q, want %q", got, want)
	}
}

func TestServedWithoutAnObserverWritesNothing(t *testing.T) {
	var b bytes.Buffer
	WriteServed(&b, nil)
	if b.Len() != 0 {
		t.Errorf("WriteServed(nil) = %q, want nothing", b.String())
	}
}
