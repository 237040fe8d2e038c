package pricing_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/pricing"
)

// An update that moves an item from one GSI partition to another, inside a
// transaction: the table is charged twice the 1 KB units of the larger
// image, and the GSI a delete on the old partition and a put on the new
// one, not doubled.
func ExampleAccount() {
	schema := designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByStatus", PK: "Status", SK: "SK"}}}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	before := ddbitem.Item{"PK": s("ORDER#1"), "SK": s("ORDER#1"), "Status": s("open"), "Note": s(strings.Repeat("x", 1500))}
	after := ddbitem.Item{"PK": s("ORDER#1"), "SK": s("ORDER#1"), "Status": s("shipped"), "Note": s(strings.Repeat("x", 1500))}

	charges := pricing.Account(schema.ItemSchema(), pricing.Observation{
		At: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), Pattern: "AP-07", Op: designs.TransactWriteItems,
		Writes: []pricing.Write{{Before: before, After: after, Key: ddbitem.Item{"PK": s("ORDER#1"), "SK": s("ORDER#1")}}},
	})
	for _, c := range charges {
		fmt.Printf("%-10s %-8s %g WCU\n", c.Target, c.Key, c.WCU)
	}
	// Output:
	// main-table ORDER#1  4 WCU
	// ByStatus   open     2 WCU
	// ByStatus   shipped  2 WCU
}
