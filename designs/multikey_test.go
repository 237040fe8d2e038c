package designs_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbharness/ddbharness/ddbitem/memtable"
	"github.com/ddbharness/ddbharness/designs"
)

var tenants = designs.Schema{PK: "PK", SK: "SK",
	Types: map[string]types.ScalarAttributeType{"createdAt": types.ScalarAttributeTypeN},
	GSIs: []designs.Index{
		{Name: "ByTenant", PKs: []string{"tenantId", "regionCode"}, SKs: []string{"orderStatus", "createdAt"}},
		{Name: "GSI1", PK: "GSI1PK", SK: "GSI1SK"},
	},
}

func TestCreateTableInputListsEachKeyAttribute(t *testing.T) {
	in := tenants.CreateTableInput("t")
	var got []string
	for _, k := range in.GlobalSecondaryIndexes[0].KeySchema {
		got = append(got, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	want := "tenantId HASH,regionCode HASH,orderStatus RANGE,createdAt RANGE"
	if strings.Join(got, ",") != want {
		t.Errorf("ByTenant's KeySchema = %v, want %s", got, want)
	}
	defs := map[string]types.ScalarAttributeType{}
	for _, d := range in.AttributeDefinitions {
		defs[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	if defs["createdAt"] != types.ScalarAttributeTypeN || defs["regionCode"] != types.ScalarAttributeTypeS || len(defs) != 8 {
		t.Errorf("AttributeDefinitions = %v, want each key attribute once, createdAt a number", defs)
	}
}

func TestCheckKeysRefusesWhatCreateTableWould(t *testing.T) {
	five := []string{"a", "b", "c", "d", "e"}
	tests := []struct {
		name string
		s    designs.Schema
		want string // in the error; empty: none
	}{
		{"the schema above", tenants, ""},
		{"five partition attributes", designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PKs: five}}}, "up to 4"},
		{"five sort attributes", designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PK: "P", SKs: five}}}, "up to 4"},
		{"both PK and PKs", designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PK: "P", PKs: []string{"a", "b"}}}}, "both as PK"},
		{"both SK and SKs", designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PK: "P", SK: "S", SKs: []string{"a", "b"}}}}, "both as SK"},
		{"no partition key", designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", SKs: []string{"a", "b"}}}}, "no partition key"},
		{"an attribute twice", designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PKs: []string{"a", "b"}, SK: "a"}}}, "named twice"},
		{"an LSI of two sort attributes", designs.Schema{PK: "PK", SK: "SK", LSIs: []designs.Index{{Name: "L", SKs: []string{"a", "b"}}}}, "use a GSI"},
	}
	for _, tt := range tests {
		err := tt.s.CheckKeys()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: CheckKeys() = %v, want nil", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: CheckKeys() = %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

func TestItemSchemaResolvesAMultiAttributeKey(t *testing.T) {
	ix, ok := tenants.ItemSchema().Index("ByTenant")
	if !ok || ix.PK != "tenantId" || ix.SK != "orderStatus" || len(ix.KeyAttrs()) != 4 || !ix.MultiAttribute() {
		t.Errorf("ItemSchema's ByTenant = %+v: want PK and SK the first attribute of each key, four key attributes", ix)
	}
	classic, _ := tenants.ItemSchema().Index("GSI1")
	if classic.MultiAttribute() || len(classic.KeyAttrs()) != 2 {
		t.Errorf("ItemSchema's GSI1 = %+v: want a key of one attribute each", classic)
	}
}

// TestQueryPageRefusesBeforeAnyCall: the in-memory table serves no Query,
// so a refusal that names the rule came before the call.
func TestQueryPageRefusesBeforeAnyCall(t *testing.T) {
	db := memtable.NewMemory(tenants.ItemSchema(), "t")
	tests := []struct {
		name string
		key  designs.KeyQuery
		want string
	}{
		{"a partition attribute left out", tenants.KeyQuery("ByTenant").Equal("tenantId", "t1"),
			"HASH key attributes regionCode must have equality conditions specified in the query"},
		{"a sort attribute skipped", tenants.KeyQuery("ByTenant").Equal("tenantId", "t1").Equal("regionCode", "eu").GreaterThan("createdAt", 5),
			"RANGE key attributes orderStatus must have equality conditions specified in the query because a condition is present on key attribute createdAt"},
		{"a range before the last attribute named", tenants.KeyQuery("ByTenant").Equal("tenantId", "t1").Equal("regionCode", "eu").BeginsWith("orderStatus", "o").Equal("createdAt", 5),
			"RANGE key attributes orderStatus must have equality conditions specified in the query because a condition is present on key attribute createdAt"},
		{"a string for a number", tenants.KeyQuery("ByTenant").Equal("tenantId", "t1").Equal("regionCode", "eu").Equal("orderStatus", "open").Equal("createdAt", "5"),
			"Condition parameter type does not match schema type"},
	}
	for _, tt := range tests {
		if _, err := tt.key.Build(); !errors.Is(err, designs.ErrInvalidInput) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Build() = %v, want ErrInvalidInput saying %q", tt.name, err, tt.want)
		}
	}
	// The SDK's own builder lets a skipped attribute through; QueryPage does not.
	skipped, err := tenants.KeyQuery("ByTenant").Equal("tenantId", "t1").Equal("regionCode", "eu").Build()
	if err != nil {
		t.Fatalf("Build() of the partition alone: %v", err)
	}
	_, _, err = tenants.QueryPage(context.Background(), db, designs.PageQuery{Table: "t", Index: "GSI1", Key: skipped, Size: 1})
	var api smithy.APIError
	if !errors.Is(err, designs.ErrInvalidInput) || !errors.As(err, &api) || api.ErrorCode() != "ValidationException" ||
		api.ErrorMessage() != "Query condition missed key schema element" {
		t.Errorf("QueryPage of GSI1 with ByTenant's key = %v, want ErrInvalidInput and DynamoDB's ValidationException", err)
	}
	_, _, err = tenants.QueryPage(context.Background(), db, designs.PageQuery{Table: "t", Index: "ByTenant", Key: skipped, Size: 1})
	if !errors.Is(err, memtable.ErrUnsupported) {
		t.Errorf("QueryPage of a valid key = %v, want the call made (the in-memory table's ErrUnsupported)", err)
	}
}
