package lint

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
)

// An item the fixtures make over 400 KB is a finding: DynamoDB would
// refuse the write, where the in-memory seed took it.
func TestItemOverTheSizeLimitIsAFinding(t *testing.T) {
	d := designs.Design{Name: "big", Schema: designs.Schema{PK: "PK", SK: "SK"}}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	small := ddbitem.Item{"PK": s("DOC#1"), "SK": s("META"), "body": s("short")}
	big := ddbitem.Item{"PK": s("DOC#2"), "SK": s("META"), "body": s(strings.Repeat("x", ddbitem.MaxItemBytes))}
	fit := ddbitem.Item{"PK": s("DOC#3"), "SK": s("META"), "body": s(strings.Repeat("x", ddbitem.MaxItemBytes-100))}

	var got []Finding
	for _, f := range check(d, seed{pool: 1, items: []ddbitem.Item{small}}, seed{pool: 3, items: []ddbitem.Item{small, fit, big}}, nil) {
		if f.Check == CheckItemSize {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d item-size findings, want 1", len(got))
	}
	f := got[0]
	if f.Measured["items"] != 1 || len(f.Keys) != 1 || !strings.Contains(f.Keys[0].Key, "DOC#2") || f.Keys[0].Bytes != ddbitem.Size(big) {
		t.Errorf("finding names %v (%d items), want DOC#2 alone at %d bytes", f.Keys, f.Measured["items"], ddbitem.Size(big))
	}
	if !strings.Contains(f.Found, "1 item over 400 KB") || f.Why == "" || f.Fix == "" {
		t.Errorf("finding's text %q / %q / %q", f.Found, f.Why, f.Fix)
	}
}
