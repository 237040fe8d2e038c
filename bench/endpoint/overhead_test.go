package endpoint

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/testbed"
)

// BenchmarkGetItemThroughEndpoint is a GetItem loop on DynamoDB Local,
// direct and through the endpoint with limits off and on (at DynamoDB's
// own limits, over 1,000 items, so none is refused), 16 calls at once.
// Run it: ddbharness local in another shell, then
// AWS_ENDPOINT_URL_DYNAMODB=<its endpoint> go test ./bench/endpoint -run '^$' -bench GetItemThroughEndpoint -benchtime 5s
func BenchmarkGetItemThroughEndpoint(b *testing.B) {
	local := os.Getenv(testbed.EnvEndpoint)
	if local == "" {
		b.Skip("set " + testbed.EnvEndpoint + " to a DynamoDB Local (ddbharness local prints one)")
	}
	ctx := context.Background()
	direct := testbed.Client(local)
	table := designs.TableName("endpoint", "bench")
	if err := designs.CreateTable(ctx, direct, schema, table); err != nil {
		b.Fatal(err)
	}
	defer designs.DeleteTable(ctx, direct, table)
	keys := make([]map[string]types.AttributeValue, 1000)
	for i := range keys {
		keys[i] = itemAt(fmt.Sprintf("K%d", i), "A")
		item := itemAt(fmt.Sprintf("K%d", i), "A")
		item["Name"] = str("an item with a name of some length")
		if _, err := direct.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			b.Fatal(err)
		}
	}
	through := func(off bool) *dynamodb.Client {
		srv := httptest.NewServer(New(Config{Local: local, Off: off}))
		b.Cleanup(srv.Close)
		return testbed.Client(srv.URL)
	}
	for _, c := range []struct {
		name string
		db   *dynamodb.Client
	}{{"direct", direct}, {"endpoint,limits=off", through(true)}, {"endpoint,limits=on", through(false)}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					if _, err := c.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: keys[i%len(keys)]}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		})
	}
}
