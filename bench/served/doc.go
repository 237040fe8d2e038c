// Package served counts what DynamoDB answered a run's calls, attempt by
// attempt, from the errors the SDK parsed: on real DynamoDB the throttling
// is the service's own, and the report must show it as the service said it
// (the exception, and each reason with the resource it names), not as a
// model predicts it.
//
// An Observer is installed on an SDK client as middleware (Install): inside
// the SDK's retry loop it sees every attempt's parsed error, outside it the
// call's final outcome. Its Summary is plain data, so that the summaries of
// several load machines can be merged into one report (Merge).
package served
