package meter_test

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/pricing"
)

// only returns the one observation recorded since the last take.
func only(r *meter.Recorder) pricing.Observation {
	GinkgoHelper()
	obs := r.Take()
	Expect(obs).To(HaveLen(1))
	return obs[0]
}

var partitions atomic.Int64

// freshPK is a partition key no other spec of this run uses.
func freshPK() string {
	return fmt.Sprintf("T#%d-%d-%d", GinkgoRandomSeed(), GinkgoParallelProcess(), partitions.Add(1))
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func ss(v ...string) types.AttributeValue {
	return &types.AttributeValueMemberSS{Value: v}
}

// setOf is a string set for expression.Value, which takes attribute values
// by value.
func setOf(v ...string) types.AttributeValueMemberSS { return types.AttributeValueMemberSS{Value: v} }

// row is an item as a pattern writes it, through attributevalue.
type row struct{ PK, SK, Name string }

func key(pk, sk string) ddbitem.Item { return ddbitem.Item{"PK": s(pk), "SK": s(sk)} }

// item is key(pk, sk) plus attributes.
func item(pk, sk string, kv ...any) ddbitem.Item {
	img := key(pk, sk)
	for i := 0; i < len(kv); i += 2 {
		v, ok := kv[i+1].(types.AttributeValue)
		if !ok {
			var err error
			v, err = attributevalue.Marshal(kv[i+1])
			Expect(err).NotTo(HaveOccurred())
		}
		img[kv[i].(string)] = v
	}
	return img
}

// stored reads the item at k straight from the table, strongly consistent.
func stored(ctx context.Context, k ddbitem.Item) ddbitem.Item {
	GinkgoHelper()
	out, err := raw.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: k, ConsistentRead: aws.Bool(true)})
	Expect(err).NotTo(HaveOccurred())
	if len(out.Item) == 0 {
		return nil
	}
	return out.Item
}

// rawPut writes an item straight to the table, behind the client's back.
func rawPut(ctx context.Context, img ddbitem.Item) {
	GinkgoHelper()
	_, err := raw.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: img})
	Expect(err).NotTo(HaveOccurred())
}

// sameItem matches an image with the same content as want.
func sameItem(want ddbitem.Item) OmegaMatcher {
	return ddbtest.SameItem(want)
}

// writesOf returns the writes of observations, in order.
func writesOf(obs []pricing.Observation) []pricing.Write {
	var ws []pricing.Write
	for _, o := range obs {
		ws = append(ws, o.Writes...)
	}
	return ws
}
