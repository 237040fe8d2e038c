package lint

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// TestGroupsAMultiAttributeGSIByItsTuple: a GSI keyed by two attributes
// has one partition key value per pair, so one tenant in two regions is
// two values, and an item without the second attribute is in none.
func TestGroupsAMultiAttributeGSIByItsTuple(t *testing.T) {
	s := designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PKs: []string{"tenantId", "regionCode"}}}}
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var items []ddbitem.Item
	for i, tr := range [][2]string{{"t1", "eu"}, {"t1", "eu"}, {"t1", "us"}, {"t2", "eu"}, {"t2", ""}} {
		it := ddbitem.Item{"PK": str(string(rune('a' + i))), "tenantId": str(tr[0])}
		if tr[1] != "" {
			it["regionCode"] = str(tr[1])
		}
		items = append(items, it)
	}
	ps := group(s, "G", entries(s, "G", items))
	var keys []string
	for k := range ps.keys {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"tenantId=t1, regionCode=eu", "tenantId=t1, regionCode=us", "tenantId=t2, regionCode=eu"}
	if !slices.Equal(keys, want) || ps.entries != 4 || ps.keys[want[0]].entries != 2 {
		t.Errorf("G's partition key values %q, %d entries; want %q, 4 entries, 2 on the first", keys, ps.entries, want)
	}
	if a := pkOf(s, "G"); a != "tenantId, regionCode" {
		t.Errorf("pkOf(G) = %q, want both attributes named", a)
	}
}
