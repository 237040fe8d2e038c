package emulate

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// TestSplitAcrossTables: a batch over two tables sends back exactly the
// requests of the table whose partitions are spent, whatever order Go
// ranges over the request map in.
func TestSplitAcrossTables(t *testing.T) {
	put := func(pk string) types.WriteRequest {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: "A"}}}}
	}
	for run := range 20 {
		e, clock := newAt(designs.Schema{PK: "PK", SK: "SK"}, Config{Settings: throughput.Settings{Partitions: 1}})
		e.mu.Lock()
		e.tableOf("spent", clock.UnixNano()).spaces[designs.MainTable].Drain(0, write, clock.UnixNano(), -1)
		e.mu.Unlock()
		in := &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			"spent": {put("S1"), put("S2")}, "fresh": {put("F1"), put("F2"), put("F3")}}}
		c := e.newCall(context.Background(), in)
		send, putBack := e.split(c, in)
		sent := send.(*dynamodb.BatchWriteItemInput).RequestItems
		out := &dynamodb.BatchWriteItemOutput{}
		putBack(out)
		if got := fmt.Sprint(len(sent["fresh"]), len(sent["spent"]), len(out.UnprocessedItems["spent"]), len(out.UnprocessedItems["fresh"])); got != "3 0 2 0" {
			t.Fatalf("run %d: sent fresh, sent spent, unprocessed spent, unprocessed fresh = %s, want 3 0 2 0", run, got)
		}
	}
}

// TestCallTouchesEachKeyOnce: a batch of three items under one partition
// key touches that key once, so the call holds its estimate there once
// and counts once among the calls denied on the key; its groups keep
// one entry per item, for splitting.
func TestCallTouchesEachKeyOnce(t *testing.T) {
	e, _ := newAt(designs.Schema{PK: "PK", SK: "SK"}, Config{Settings: throughput.Settings{Partitions: 1}})
	put := func(sk string) types.WriteRequest {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "K"}, "SK": &types.AttributeValueMemberS{Value: sk}}}}
	}
	c := e.newCall(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"t": {put("1"), put("2"), put("3")}}})
	if len(c.touches) != 1 || len(c.groups) != 3 {
		t.Errorf("%d touches in %d groups, want 1 touch of key K in 3 groups: %v", len(c.touches), len(c.groups), c.touches)
	}

	// Admitted item by item, the batch still holds its estimate on K once.
	e.mu.Lock()
	s := e.tableOf("t", 0).space(designs.MainTable)
	e.learn(keySlot{s.id, e.names.ID("K")}, [2]float64{0, 2})
	e.mu.Unlock()
	in := &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"t": {put("1"), put("2"), put("3")}}}
	c = e.newCall(context.Background(), in)
	e.split(c, in)
	if len(c.held) != 1 || c.held[0].units != 2 {
		t.Errorf("the batch holds %v, want one reservation of 2 WCU on K", c.held)
	}
}
