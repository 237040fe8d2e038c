package endpoint

import (
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

var _ = Describe("an upsert through the endpoint", Label("wire"), func() {
	It("is refused, naming the index, once its GSI partition is spent: an UpdateItem that creates its item writes the index too", func(ctx SpecContext) {
		// 0.001: a GSI partition serves 1 write unit a second, and the
		// clock stands still.
		clock := ddbtest.NewClock()
		sc := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByG", PK: "G", SK: "SK"}}}
		h := New(Config{Local: local, Limits: emulate.Config{Settings: throughput.Settings{Scale: 0.001, Partitions: 4}, Now: clock.Now}})
		srv := httptest.NewServer(h)
		DeferCleanup(srv.Close)
		db, direct := testbed.Client(srv.URL, ddbtest.QuickRetries), testbed.Client(local)
		table := designs.TableName("upsert", fmt.Sprintf("p%d", GinkgoParallelProcess()))
		Expect(designs.CreateTable(ctx, db, sc, table)).To(Succeed())
		DeferCleanup(func(ctx SpecContext) { Expect(designs.DeleteTable(ctx, direct, table)).To(Succeed()) })

		// Two new items on table partitions of their own, one index value.
		var pks []string
		for i := 0; len(pks) < 2; i++ {
			k := fmt.Sprintf("u%d", i)
			if len(pks) == 0 || emulate.Placement(k, 4) != emulate.Placement(pks[0], 4) {
				pks = append(pks, k)
			}
		}
		upsert := func(pk string) error {
			_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table),
				Key: map[string]types.AttributeValue{"PK": str(pk), "SK": str("1")}, UpdateExpression: aws.String("SET G = :g"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":g": str("hot")}})
			return err
		}
		Expect(upsert(pks[0])).To(Succeed())
		err := upsert(pks[1])
		var te *types.ThrottlingException
		Expect(errors.As(err, &te)).To(BeTrue(), "got %v", err)
		Expect(te.ThrottlingReasons).To(HaveLen(1))
		Expect(aws.ToString(te.ThrottlingReasons[0].Reason)).To(Equal("IndexWriteKeyRangeThroughputExceeded"))
		Expect(aws.ToString(te.ThrottlingReasons[0].Resource)).To(Equal("arn:aws:dynamodb:ddblocal:000000000000:table/" + table + "/index/ByG"))
		out, err := direct.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": str(pks[1]), "SK": str("1")}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Item).To(BeEmpty(), "the refused upsert wrote nothing")
	})
})
