package services_test

import (
	"cmp"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/services"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	_ "github.com/ddbharness/ddbharness/internal/hostile" // hostile verify's fault rules
)

func TestServices(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "services", Label(services.Design.Label()))
}

var env = ddbtest.Setup(services.Design)

var (
	table services.Table // this process's own table, the patterns under test
	// quiet is the same table through the client straight to DynamoDB:
	// a spec's own setup in its body, and its reads of what a pattern
	// stored, never behind hostile verify's faults.
	quiet services.Table
	fake  *fixtures.Services
)

var _ = BeforeEach(func() {
	table = services.Table{DB: env.Patterns, Name: env.Table}
	quiet = services.Table{DB: env.DB, Name: env.Table}
	if fake == nil { // one generator per process: keys and report years never repeat within its table
		fake = fixtures.NewServices(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})

// record stores fresh services through AP-01 on quiet (setup, also in a
// spec's body), one per date, each for a client of its own unless
// clientID is given.
func record(ctx context.Context, clientID string, dates ...string) []services.Service {
	out := make([]services.Service, len(dates))
	for i, d := range dates {
		c := clientID
		if c == "" {
			c = fake.ClientID()
		}
		out[i] = fake.ServiceOn(c, d)
		Expect(quiet.RecordService(ctx, out[i])).To(Succeed())
	}
	return out
}

// storedItem reads the raw item at k straight from the table, consistently;
// nil when there is none.
func storedItem(ctx context.Context, k services.ServiceKey) map[string]types.AttributeValue {
	return env.Item(ctx, services.Schema.Key(services.ClientPK(k.ClientID), services.ServiceSK(k.Date, k.ID)))
}

// partition is every item of the client's partition, read straight from the
// table rather than through a pattern.
func partition(ctx context.Context, clientID string) []services.Service {
	key := expression.Key(services.Schema.PK).Equal(expression.Value(services.ClientPK(clientID)))
	expr, err := expression.NewBuilder().WithKeyCondition(key).Build()
	Expect(err).NotTo(HaveOccurred())
	out, err := env.DB.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(env.Table),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ConsistentRead:            aws.Bool(true),
	})
	Expect(err).NotTo(HaveOccurred())
	var all []services.Service
	Expect(attributevalue.UnmarshalListOfMaps(out.Items, &all)).To(Succeed())
	return all
}

// readAll pages through a listing n at a time and returns what it listed.
// Every page but the last must be full; the last has no Next and is empty
// only when the listing is.
func readAll(g Gomega, n int, list func(designs.Cursor) (services.Page, error)) []services.Service {
	var all []services.Service
	var cursor designs.Cursor
	for pages := 0; ; pages++ {
		g.Expect(pages).To(BeNumerically("<", 100), "paging does not end")
		page, err := list(cursor)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(len(page.Services)).To(BeNumerically("<=", n))
		all = append(all, page.Services...)
		if cursor = page.Next; cursor == "" {
			g.Expect(len(page.Services) == 0 && pages > 0).To(BeFalse(), "an empty last page after a Next")
			break
		}
		g.Expect(page.Services).To(HaveLen(n), "a page followed by another is full")
	}
	return all
}

// Expected orders, written independently of the key builders.
func newestFirst(s []services.Service) []services.Service {
	return slices.SortedFunc(slices.Values(s), func(a, b services.Service) int {
		return cmp.Or(cmp.Compare(b.Date, a.Date), cmp.Compare(b.ID, a.ID))
	})
}

func dateOrder(s []services.Service) []services.Service {
	return slices.SortedFunc(slices.Values(s), func(a, b services.Service) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.ID, b.ID))
	})
}

func where(s []services.Service, keep func(services.Service) bool) []services.Service {
	var out []services.Service
	for _, x := range s {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// report lists a period of ByYear in full, for Eventually: a spec's
// check, so through quiet.
func report(ctx context.Context, p services.Period) func(Gomega) []services.Service {
	return func(g Gomega) []services.Service {
		return readAll(g, 10, func(c designs.Cursor) (services.Page, error) { return quiet.ReportPeriod(ctx, p, 10, c) })
	}
}

// awaiting lists a program's awaiting vouchers in full, for Eventually,
// through quiet.
func awaiting(ctx context.Context, program string) func(Gomega) []services.Service {
	return func(g Gomega) []services.Service {
		return readAll(g, 10, func(c designs.Cursor) (services.Page, error) { return quiet.ListAwaitingVouchers(ctx, program, 10, c) })
	}
}

// version is the write count stored with a service.
func version(ctx context.Context, k services.ServiceKey) int {
	var v struct{ Version int }
	Expect(attributevalue.UnmarshalMap(storedItem(ctx, k), &v)).To(Succeed())
	return v.Version
}

// date is y-m-d as the service date text.
func date(y, m, d int) string { return string(services.Day(y, time.Month(m), d)) }
