package emulate

import (
	"errors"
	"fmt"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

// emulated is an enabled emulator of schema and cfg, its client over this
// run's DynamoDB Local, and a table of its own for this process, named
// after name and deleted when the spec ends.
func emulated(ctx SpecContext, schema designs.Schema, cfg Config, name string) (*Emulator, *meter.Client, string) {
	GinkgoHelper()
	e := New(schema, cfg)
	db := e.Client(dynamodb.New(raw.Options(), ddbtest.QuickRetries))
	table := designs.TableName(name, fmt.Sprintf("p%d", GinkgoParallelProcess()))
	Expect(designs.CreateTable(ctx, raw, schema, table)).To(Succeed())
	DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, raw, table)).To(Succeed()) })
	e.Enable()
	return e, db, table
}

// wireSchema is a table with a GSI: G is the index's partition key.
var wireSchema = designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByG", PK: "G", SK: "SK"}}}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// itemAt is the item PK=pk, SK=sk (its key), with G=g when g is set.
func itemAt(pk, sk, g string) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)}
	if g != "" {
		it["G"] = str(g)
	}
	return it
}

// keyNames lists items (or keys) as "PK/SK", to compare them at a glance.
func keyNames(items []map[string]types.AttributeValue) []string {
	var out []string
	for _, it := range items {
		pk, _ := it["PK"].(*types.AttributeValueMemberS)
		sk, _ := it["SK"].(*types.AttributeValueMemberS)
		if pk == nil || sk == nil {
			out = append(out, fmt.Sprint(it))
			continue
		}
		out = append(out, pk.Value+"/"+sk.Value)
	}
	return out
}

// putNames lists the items of a batch's put requests as "PK/SK".
func putNames(reqs []types.WriteRequest) []string {
	var items []map[string]types.AttributeValue
	for _, w := range reqs {
		if w.PutRequest != nil {
			items = append(items, w.PutRequest.Item)
		}
	}
	return keyNames(items)
}

func putRequest(pk, sk string) types.WriteRequest {
	return types.WriteRequest{PutRequest: &types.PutRequest{Item: itemAt(pk, sk, "")}}
}

// partitionOf is the partition of parts partition key value key lands on
// (none is isolated in these specs).
func partitionOf(key string, parts int) uint64 { return uint64(Placement(key, parts)) }

// keysOff returns n partition key values, none on a partition of any of
// avoid, taking the other partitions in turn: each on a partition of its
// own while there are enough.
func keysOff(n, parts int, avoid ...string) []string {
	taken := map[uint64]bool{}
	for _, k := range avoid {
		taken[partitionOf(k, parts)] = true
	}
	var free []uint64
	for p := range uint64(parts) {
		if !taken[p] {
			free = append(free, p)
		}
	}
	keys := make([]string, 0, n)
	used := map[string]bool{}
	for i := range n {
		want := free[i%len(free)]
		for j := 0; ; j++ {
			k := fmt.Sprintf("K%d", j)
			if !used[k] && partitionOf(k, parts) == want {
				used[k] = true
				keys = append(keys, k)
				break
			}
		}
	}
	return keys
}

// writeCharges is wcu write units on each key of the table, as the
// instrumented client's observer would debit them.
func writeCharges(keys []string, wcu float64) []pricing.Charge {
	cs := make([]pricing.Charge, len(keys))
	for i, k := range keys {
		cs[i] = pricing.Charge{Target: designs.MainTable, Key: k, WCU: wcu}
	}
	return cs
}

// The exceptions a refusal for capacity answers with: an on-demand
// table's or GSI's, a provisioned one's, and the account quota's.
const (
	answerOnDemand    = "ThrottlingException"
	answerProvisioned = "ProvisionedThroughputExceededException"
	answerAccount     = "RequestLimitExceeded"
)

// throttlingReasons is the exception err is, as the SDK parsed it, and
// the ThrottlingReasons it gave; "" when it is none of the three.
func throttlingReasons(err error) (string, []types.ThrottlingReason) {
	var (
		te  *types.ThrottlingException
		pte *types.ProvisionedThroughputExceededException
		rle *types.RequestLimitExceeded
	)
	switch {
	case errors.As(err, &te):
		return answerOnDemand, te.ThrottlingReasons
	case errors.As(err, &pte):
		return answerProvisioned, pte.ThrottlingReasons
	case errors.As(err, &rle):
		return answerAccount, rle.ThrottlingReasons
	}
	return "", nil
}

// retriedOut checks the SDK's retryer made its three attempts and gave up
// with err.
func retriedOut(err error) {
	GinkgoHelper()
	var max *retry.MaxAttemptsError
	Expect(errors.As(err, &max)).To(BeTrue(), "the SDK's retryer gave up: %v", err)
	Expect(max.Attempt).To(Equal(3))
}

// saidAsAWS checks a refusal's message begins with words, AWS's for its
// billing mode and resource, and that its request id has DynamoDB's
// shape: 52 upper-case letters and digits, as captured on the wire (for
// one, https://github.com/apache/hadoop/pull/1814).
func saidAsAWS(err error, words string) {
	GinkgoHelper()
	var api smithy.APIError
	Expect(errors.As(err, &api)).To(BeTrue(), "an API error: %v", err)
	Expect(api.ErrorMessage()).To(HavePrefix(words))
	var re *awshttp.ResponseError
	Expect(errors.As(err, &re)).To(BeTrue(), "an HTTP response error: %v", err)
	Expect(re.ServiceRequestID()).To(MatchRegexp(`^[A-Z0-9]{52}$`))
}
