package emulate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/capacity"
	"github.com/ddbharness/ddbharness/designs"
)

// upsert is an UpdateItem that creates item pk/sk with G=g (and an entry
// on the index's g) when it finds none; it reports whether the emulator
// throttled it.
func (r *sdkRun) upsert(t *testing.T, pk, sk, g string) bool {
	t.Helper()
	r.calls++
	_, err := r.db.UpdateItem(designs.WithPattern(context.Background(), "AP-02"), &dynamodb.UpdateItemInput{TableName: aws.String("t"),
		Key:                       map[string]types.AttributeValue{"PK": str(pk), "SK": str(sk)},
		UpdateExpression:          aws.String("SET G = :g"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":g": str(g)}})
	if err != nil && !throttled(err) {
		t.Fatalf("UpdateItem: %v", err)
	}
	return err != nil
}

// TestForecastCountsTheIndexWritesOfDeniedUpserts: an upsert the table's
// partition refuses would also have written the index: the capacity model
// puts its index write back with its table write. Each second 20 upserts
// of new items under table key T, each writing the index's "hot" (1 WCU
// on each): T's partition serves 10 and refuses 10, so the index's hot
// was asked for 20 WCU a second, and with the table's T reaches its 10
// WCU/s at 10 requests/s of the mix.
func TestForecastCountsTheIndexWritesOfDeniedUpserts(t *testing.T) {
	const secs = 10
	r := newSDKRun(wireSchema)
	for sec := range secs {
		for i := range 20 {
			if refused := r.upsert(t, "T", fmt.Sprintf("%d/%02d", sec, i), "hot"); refused != (i >= 10) {
				t.Fatalf("second %d, upsert %d: throttled %t, want T's partition to serve the first 10", sec, i, refused)
			}
		}
		r.clock.Add(time.Second)
	}
	if d := r.e.Denied("ByG", "hot"); d.Writes != 100 || d.WCU != 100 {
		t.Errorf("denied on the index's hot: %+v, want the 100 refused upserts, 1 WCU each", d)
	}
	rep := r.report(secs)
	for _, at := range []struct{ target, key string }{{designs.MainTable, "T"}, {"ByG", "hot"}} {
		i := slices.IndexFunc(rep.Hot, func(h capacity.HotKey) bool { return h.Target == at.target && h.Key == at.key })
		if i < 0 {
			t.Fatalf("%s %s is not among the hot keys: %+v", at.target, at.key, rep.Hot)
		}
		if got := rep.Hot[i].ThrottleRate; math.Abs(got-10) > 0.1 {
			t.Errorf("%s %s reaches its partition's 10 WCU/s at %.2f requests/s, want 10 (every upsert's write, served or refused)", at.target, at.key, got)
		}
	}
}
