package designs_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

func TestCursorRoundTrip(t *testing.T) {
	key := map[string]types.AttributeValue{
		"PK":   &types.AttributeValueMemberS{Value: "CLIENT#1"},
		"SK":   &types.AttributeValueMemberS{Value: "#INVOICE#2"},
		"Year": &types.AttributeValueMemberN{Value: "2026"},
		"Seq":  &types.AttributeValueMemberN{Value: "12345678901234567890123456789012345678"}, // 38 digits: no float64 holds it
	}
	c, err := designs.EncodeCursor(key)
	if err != nil {
		t.Fatalf("EncodeCursor(%v) error %v", key, err)
	}
	got, err := c.Decode()
	if err != nil {
		t.Fatalf("Cursor(%q).Decode() error %v", c, err)
	}
	for name, want := range key {
		if g, ok := got[name]; !ok || !equalAV(g, want) {
			t.Errorf("Cursor(%q).Decode()[%s] = %#v, want %#v", c, name, g, want)
		}
	}
	if empty, _ := designs.EncodeCursor(nil); empty != "" {
		t.Errorf("EncodeCursor(nil) = %q, want empty", empty)
	}
	for _, bad := range []types.AttributeValue{&types.AttributeValueMemberB{Value: []byte("k")}, &types.AttributeValueMemberN{Value: "NaN"}} {
		if c, err := designs.EncodeCursor(map[string]types.AttributeValue{"PK": bad}); err == nil {
			t.Errorf("EncodeCursor(PK %#v) = %q, want an error: a cursor holds strings and numbers", bad, c)
		}
	}
}

func equalAV(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		return ok && a.Value == b.Value
	}
	return false
}

func TestCursorRejectsForeignText(t *testing.T) {
	// not base64, not JSON, {}, {"PK":true}, {"":"4"}
	for _, c := range []designs.Cursor{"!!!", "bm90IGpzb24", "e30", "eyJQSyI6dHJ1ZX0", "eyIiOiI0In0"} {
		if _, err := c.Decode(); !errors.Is(err, designs.ErrInvalidInput) {
			t.Errorf("Cursor(%q).Decode() error = %v, want ErrInvalidInput", c, err)
		}
	}
}

func TestCreateTableInput(t *testing.T) {
	s := designs.Schema{PK: "PK", SK: "SK",
		Types: map[string]types.ScalarAttributeType{"Year": types.ScalarAttributeTypeN},
		GSIs: []designs.Index{
			{Name: "ByYear", PK: "Year", SK: "SK"},
			{Name: "Slim", PK: "G2", Projection: types.ProjectionTypeInclude, NonKey: []string{"Name"}},
		},
		LSIs: []designs.Index{{Name: "LSI1", SK: "SKU", Projection: types.ProjectionTypeKeysOnly}},
	}
	in := s.CreateTableInput("t")
	defs := map[string]types.ScalarAttributeType{}
	for _, d := range in.AttributeDefinitions {
		if _, dup := defs[*d.AttributeName]; dup {
			t.Errorf("attribute %s defined twice", *d.AttributeName)
		}
		defs[*d.AttributeName] = d.AttributeType
	}
	want := map[string]types.ScalarAttributeType{"PK": "S", "SK": "S", "Year": "N", "G2": "S", "SKU": "S"}
	if len(defs) != len(want) {
		t.Errorf("CreateTableInput definitions = %v, want %v", defs, want)
	}
	for k, v := range want {
		if defs[k] != v {
			t.Errorf("CreateTableInput definition %s = %q, want %q", k, defs[k], v)
		}
	}
	if in.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("CreateTableInput billing = %s, want PAY_PER_REQUEST by default", in.BillingMode)
	}
	if p := in.GlobalSecondaryIndexes[0].Projection.ProjectionType; p != types.ProjectionTypeAll {
		t.Errorf("GSI ByYear projection = %s, want ALL by default", p)
	}
	if g := in.GlobalSecondaryIndexes[1]; len(g.KeySchema) != 1 || g.Projection.NonKeyAttributes[0] != "Name" {
		t.Errorf("GSI Slim = %+v, want hash key only and INCLUDE Name", g)
	}
	l := in.LocalSecondaryIndexes[0]
	if aws.ToString(l.KeySchema[0].AttributeName) != "PK" || aws.ToString(l.KeySchema[1].AttributeName) != "SKU" {
		t.Errorf("LSI1 key schema = %+v, want table PK and SKU", l.KeySchema)
	}
}

// The warm and maximum throughput asked on creation go on the table and
// on each GSI, each side only when asked.
func TestCreateTableAsksWarmAndMaxOnDemand(t *testing.T) {
	in := designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "G", PK: "G"}}}.CreateTableInput("t")
	designs.AskWarm(in, 20000, 0)
	designs.AskMaxOnDemand(in, 0, 500)
	for _, c := range []struct {
		name string
		warm *types.WarmThroughput
		max  *types.OnDemandThroughput
	}{{"table", in.WarmThroughput, in.OnDemandThroughput}, {"GSI G", in.GlobalSecondaryIndexes[0].WarmThroughput, in.GlobalSecondaryIndexes[0].OnDemandThroughput}} {
		if c.warm == nil || aws.ToInt64(c.warm.ReadUnitsPerSecond) != 20000 || c.warm.WriteUnitsPerSecond != nil {
			t.Errorf("%s warm throughput = %+v, want 20,000 reads and no writes asked", c.name, c.warm)
		}
		if c.max == nil || c.max.MaxReadRequestUnits != nil || aws.ToInt64(c.max.MaxWriteRequestUnits) != 500 {
			t.Errorf("%s maximum throughput = %+v, want 500 writes and no reads", c.name, c.max)
		}
	}
	none := designs.Schema{PK: "PK"}.CreateTableInput("t")
	designs.AskMaxOnDemand(none, 0, 0)
	if none.OnDemandThroughput != nil {
		t.Errorf("no maximum asked: OnDemandThroughput = %+v, want none", none.OnDemandThroughput)
	}
}

func TestValidate(t *testing.T) {
	base := designs.Design{Name: "d", Schema: designs.Schema{PK: "PK", GSIs: []designs.Index{{Name: "GSI1", PK: "G"}}}}
	tests := []struct {
		name     string
		patterns []designs.Pattern
		want     string // part of the error; empty: valid
	}{
		{"valid", []designs.Pattern{{ID: "AP-01", Name: "a", Op: designs.Query, Index: "GSI1"}}, ""},
		{"duplicate ID", []designs.Pattern{{ID: "AP-01", Name: "a", Op: designs.Query, Index: "GSI1"}, {ID: "AP-01", Name: "b", Op: designs.GetItem, Index: designs.MainTable}}, "used twice"},
		{"unknown index", []designs.Pattern{{ID: "AP-01", Name: "a", Op: designs.Query, Index: "GSI9"}}, "unknown index"},
		{"missing op", []designs.Pattern{{ID: "AP-01", Name: "a", Index: designs.MainTable}}, "needs an ID"},
	}
	for _, tt := range tests {
		d := base
		d.Patterns = tt.patterns
		err := d.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Validate() = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCheckTransactSize(t *testing.T) {
	if err := designs.CheckTransactSize(designs.MaxTransactActions); err != nil {
		t.Errorf("CheckTransactSize(100) = %v, want nil", err)
	}
	if err := designs.CheckTransactSize(designs.MaxTransactActions + 1); !errors.Is(err, designs.ErrTooManyActions) {
		t.Errorf("CheckTransactSize(101) = %v, want ErrTooManyActions", err)
	}
}

func TestDeleteTableRefusesForeignTables(t *testing.T) {
	// nil Admin: the refusal must come before any call.
	err := designs.DeleteTable(context.Background(), nil, "orders")
	if !errors.Is(err, designs.ErrInvalidInput) {
		t.Errorf("DeleteTable(orders) = %v, want ErrInvalidInput", err)
	}
	if name := designs.TableName("shop", "p1"); !strings.HasPrefix(name, designs.TablePrefix+"shop-p1-") {
		t.Errorf("TableName(shop, p1) = %q, want prefix %q", name, designs.TablePrefix+"shop-p1-")
	}
}

func TestIDsSortByTime(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	early, late := designs.NewID(t0), designs.NewID(t0.Add(time.Second))
	if !(early < late) || !(designs.MinIDAt(t0) <= early) || !(designs.MinIDAt(t0.Add(time.Second)) > early) {
		t.Errorf("NewID order: early %s, late %s, MinIDAt %s", early, late, designs.MinIDAt(t0))
	}
	if got, err := designs.IDTime(late); err != nil || !got.Equal(t0.Add(time.Second)) {
		t.Errorf("IDTime(%s) = %v, %v, want %v", late, got, err, t0.Add(time.Second))
	}
}

func TestKeyID(t *testing.T) {
	s := designs.Schema{PK: "PK", SK: "SK"}
	str := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "1"}, "SK": &types.AttributeValueMemberS{Value: "a"}, "X": &types.AttributeValueMemberS{Value: "x"}}
	num := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "1"}, "SK": &types.AttributeValueMemberS{Value: "a"}}
	a, okA := s.KeyID(str)
	b, okB := s.KeyID(num)
	if !okA || !okB || a == b {
		t.Errorf("KeyID(string 1) = %q, %v; KeyID(number 1) = %q, %v; want two different IDs", a, okA, b, okB)
	}
	point := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "1.0"}, "SK": &types.AttributeValueMemberS{Value: "a"}}
	if c, _ := s.KeyID(point); c != b {
		t.Errorf("KeyID(number 1.0) = %q, KeyID(number 1) = %q: DynamoDB stores them as one key, want one ID", c, b)
	}
	key, id, err := s.KeyOf(str)
	if err != nil || id != a || len(key) != 2 {
		t.Errorf("KeyOf(item) = %v, %q, %v; want PK and SK only, ID %q", key, id, err, a)
	}
	if _, ok := s.KeyID(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "1"}}); ok {
		t.Errorf("KeyID(item without SK) ok, want not ok")
	}
	if _, _, err := s.KeyOf(map[string]types.AttributeValue{}); !errors.Is(err, designs.ErrInvalidInput) {
		t.Errorf("KeyOf(empty) error = %v, want ErrInvalidInput", err)
	}
}

func TestBackoffStaysUnderItsCeiling(t *testing.T) {
	capped := designs.Backoff{Base: 10 * time.Millisecond, Max: 100 * time.Millisecond}
	open := designs.Backoff{Base: 10 * time.Millisecond}
	tests := []struct {
		name    string
		b       designs.Backoff
		retry   int
		ceiling time.Duration
	}{
		{"the first retry", capped, 0, 10 * time.Millisecond},
		{"doubled", capped, 1, 20 * time.Millisecond},
		{"doubled again", capped, 3, 80 * time.Millisecond},
		{"at Max", capped, 4, 100 * time.Millisecond},
		{"past any shift", capped, 60, 100 * time.Millisecond},
		{"no Max", open, 5, 320 * time.Millisecond},
		{"no Max, doubled until it would overflow", open, 70, 10 * time.Millisecond << 39},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.Ceiling(tc.retry); got != tc.ceiling {
				t.Fatalf("Ceiling(%d) = %v, want %v", tc.retry, got, tc.ceiling)
			}
			for range 200 {
				if got := tc.b.Delay(tc.retry); got < 0 || got >= tc.ceiling {
					t.Fatalf("Delay(%d) = %v, want in [0, %v)", tc.retry, got, tc.ceiling)
				}
			}
		})
	}
}

// BatchGet refuses, before any call, keys BatchGetItem cannot take.
func TestBatchGetRefusesKeysBeforeAnyCall(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	tests := []struct {
		name string
		keys []map[string]types.AttributeValue
		want string
	}{
		{"a key of no attribute", []map[string]types.AttributeValue{{}}, "names 0 attributes"},
		{"a key of three attributes", []map[string]types.AttributeValue{{"PK": s("a"), "SK": s("b"), "X": s("c")}}, "names 3 attributes"},
		{"a key naming other attributes", []map[string]types.AttributeValue{{"PK": s("a")}, {"ID": s("b")}}, "key 1 does not name the key attributes PK"},
		{"a key named twice, numbers by value", []map[string]types.AttributeValue{{"PK": n("1")}, {"PK": n("1.0")}}, "keys 0 and 1 are the same key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := designs.BatchGet[map[string]any](context.Background(), nil, "t", tc.keys, false)
			if !errors.Is(err, designs.ErrInvalidInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("BatchGet = %v, want invalid input saying %q", err, tc.want)
			}
		})
	}
}

// Wait returns with the context's error once the context ends: before the
// wait or during it.
func TestBackoffWaitStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := (designs.Backoff{Base: time.Hour}).Wait(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled", err)
	}
	if waited := time.Since(start); waited > time.Minute {
		t.Errorf("Wait took %s on an ended context", waited)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	start = time.Now()
	if err := (designs.Backoff{Base: time.Hour}).Wait(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled when the context ends during the wait", err)
	}
	if waited := time.Since(start); waited > time.Minute {
		t.Errorf("Wait took %s after its context ended during the wait", waited)
	}
}
