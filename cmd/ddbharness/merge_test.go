package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/bench/report"
	"github.com/ddbharness/ddbharness/scenarios"
)

// shardFolder writes the report folder of shard i of a two-shard run of
// shop/browse under limits with conflicts emulated, as bench writes it,
// then lets edit change its shard.json (decoded as JSON) before it is
// written back: a file edited or damaged by hand.
func shardFolder(t *testing.T, root string, i int, edit func(map[string]any)) string {
	t.Helper()
	sc := scenarios.ShopBrowse
	start := time.Date(2026, 11, 23, 21, 0, 0, 0, time.UTC)
	dir := filepath.Join(root, "shard"+string(rune('0'+i)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := sc.Design.Pattern(sc.Mix[0].Pattern)
	var calls bytes.Buffer
	enc := vegeta.NewEncoder(&calls)
	for n := range 10 {
		r := vegeta.Result{Attack: string(p.ID), Seq: uint64(2*n + i - 1), Code: 200, Timestamp: start.Add(time.Duration(n) * 10 * time.Millisecond), Latency: time.Millisecond}
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, report.ResultsFile), calls.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bench.Outcome
	out.Shard = engine.ShardSpec{I: i, N: 2, Run: "tampered"}
	out.Scenario, out.Design, out.Started, out.Elapsed, out.Workers = sc.Name, sc.Design.Name, start, time.Second, 8
	out.Patterns = []engine.PatternMetrics{{Pattern: p, Weight: 1}}
	out.Total.Requests = 10
	out.Inputs = bench.ModelInputs{Requests: 10, Span: time.Second}
	out.Limits = bench.Limits{Scale: 0.05, Share: 0.5}
	out.Ledger = ledger.NewLedger(sc.Design.Schema)
	out.Throttling = &emulate.Throttling{Scale: 0.025, Billing: "on-demand", Calls: 10, Conflicts: 3, ConflictCancelled: 1,
		Patterns: []emulate.PatternThrottles{{Pattern: p.ID, Calls: 10, Attempts: 10, Conflicts: 3, ConflictCancelled: 1}}}
	var b bytes.Buffer
	if err := report.WriteShard(&b, out); err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(b.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(f)
	}
	raw, _ := json.Marshal(f)
	if err := os.WriteFile(filepath.Join(dir, report.ShardFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// merge runs `ddbharness report merge` on the folders, with the merged
// report under a folder of its own.
func merge(t *testing.T, dirs ...string) (code int, msg string) {
	t.Helper()
	args := append([]string{"merge", "--out", t.TempDir()}, dirs...)
	fs := newFlags("report", "", "")
	fs.SetOutput(new(bytes.Buffer))
	null, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0) // also run off the test's goroutine: no t.Fatal
	defer null.Close()
	stdout := os.Stdout
	os.Stdout = null
	defer func() { os.Stdout = stdout }()
	return exitCode(t.Context(), runReport(t.Context(), fs, args))
}

func throttling(f map[string]any) map[string]any { return f["throttling"].(map[string]any) }

func firstPattern(f map[string]any) map[string]any {
	return throttling(f)["patterns"].([]any)[0].(map[string]any)
}

func TestMergeTakesTwoWholeShards(t *testing.T) {
	root := t.TempDir()
	if code, msg := merge(t, shardFolder(t, root, 1, nil), shardFolder(t, root, 2, nil)); code != exitOK {
		t.Fatalf("merge of two whole shards: exit %d, %s", code, msg)
	}
}

// A GSI key whose entries written before the run moved away knows fewer
// than 0 bytes: a real shard says so, and the merge takes it.
func TestMergeTakesAKeyWhoseKnownBytesAreBelowZero(t *testing.T) {
	root := t.TempDir()
	moved := func(f map[string]any) {
		f["ledger"].(map[string]any)["index_keys"] = []any{map[string]any{"index": "GSI1", "pk": "USER", "known_bytes": -1, "added_bytes": -1, "grows": 0}}
	}
	if code, msg := merge(t, shardFolder(t, root, 1, moved), shardFolder(t, root, 2, nil)); code != exitOK {
		t.Fatalf("merge: exit %d, %s", code, msg)
	}
}

// A pattern whose writes shrink or delete items grows the table by less
// than 0 bytes: a real shard records it (invoicing's month-end does), and
// the merge takes it.
func TestMergeTakesAPatternThatShrinksItems(t *testing.T) {
	root := t.TempDir()
	shrinks := func(f map[string]any) {
		l := f["ledger"].(map[string]any)
		l["patterns"] = []any{map[string]any{"pattern": "AP-03", "op": "UpdateItem", "calls": 3, "rcu": 0, "wcu": 3, "local_units": 0, "local_calls": 0, "bytes_grown": -5683}}
		l["observed_calls"] = 3
	}
	if code, msg := merge(t, shardFolder(t, root, 1, shrinks), shardFolder(t, root, 2, nil)); code != exitOK {
		t.Fatalf("merge: exit %d, %s", code, msg)
	}
}

// A shard written before the emulator's scale was spelt limits_scale has
// it as scale: the merge reads it, and merges it as the newer spelling.
func TestMergeTakesAShardWithTheFormerSpelling(t *testing.T) {
	root := t.TempDir()
	former := func(f map[string]any) {
		th := throttling(f)
		th["scale"] = th["limits_scale"]
		delete(th, "limits_scale")
	}
	if code, msg := merge(t, shardFolder(t, root, 1, former), shardFolder(t, root, 2, nil)); code != exitOK {
		t.Fatalf("merge of a shard with throttling.scale: exit %d, %s", code, msg)
	}
}

func ledgerOf(f map[string]any) map[string]any { return f["ledger"].(map[string]any) }

func inputs(f map[string]any) map[string]any { return f["model_inputs"].(map[string]any) }

// Every count the merge sums, a tampered shard.json saying it is below 0,
// missing, or that the shards ran otherwise, is refused with exit 2,
// naming the shard and the field.
func TestMergeRefusesWhatItWouldSumWrongly(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(map[string]any)
		field string
	}{
		{"a negative conflict count", func(f map[string]any) { firstPattern(f)["transaction_conflicts"] = -97519 }, "transaction_conflicts"},
		{"a negative calls count", func(f map[string]any) { throttling(f)["calls"] = -1 }, "calls"},
		{"a negative count of unsent calls", func(f map[string]any) { f["run"].(map[string]any)["Unsent"] = -5 }, "Unsent"},
		{"a missing conflict total", func(f map[string]any) { delete(throttling(f), "transaction_conflicts") }, "transaction_conflicts"},
		{"a missing conflict count of a pattern", func(f map[string]any) { delete(firstPattern(f), "transaction_conflicts") }, "transaction_conflicts"},
		{"a null count", func(f map[string]any) { throttling(f)["cancelled_for_conflict"] = nil }, "cancelled_for_conflict"},
		{"conflicts off beside a shard counting them", func(f map[string]any) { throttling(f)["conflicts_off"] = true }, "conflicts_off"},
		{"limits off beside a shard under them", func(f map[string]any) { delete(f, "throttling") }, "throttling"},
		{"another billing mode", func(f map[string]any) { throttling(f)["billing"] = "provisioned" }, "billing"},
		{"another service", func(f map[string]any) { f["service"] = "real DynamoDB in eu-west-1" }, "service"},
		{"observed calls its patterns do not add up to", func(f map[string]any) { ledgerOf(f)["observed_calls"] = 9000 }, "observed_calls"},
		{"a span longer than the run measured", func(f map[string]any) { inputs(f)["span_ns"] = 3 * time.Second }, "span_ns"},
		{"a span shorter than the run measured", func(f map[string]any) { inputs(f)["span_ns"] = 1 }, "span_ns"},
		{"more requests than the run made", func(f map[string]any) { inputs(f)["requests"] = 1000 }, "requests"},
		{"model inputs without a ledger", func(f map[string]any) { delete(f, "ledger") }, "model_inputs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			bad := shardFolder(t, root, 2, c.edit)
			code, msg := merge(t, shardFolder(t, root, 1, nil), bad)
			if code != exitBadInput || !strings.Contains(msg, bad) || !strings.Contains(msg, c.field) {
				t.Fatalf("exit %d, %q; want exit %d naming %s and %s", code, msg, exitBadInput, bad, c.field)
			}
		})
	}
}

// A shard.json that is a named pipe is refused at once, not waited on.
func TestMergeRefusesANamedPipe(t *testing.T) {
	root := t.TempDir()
	one, two := shardFolder(t, root, 1, nil), shardFolder(t, root, 2, nil)
	path := filepath.Join(two, report.ShardFile)
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan struct{})
	var code int
	var msg string
	go func() { code, msg = merge(t, one, two); close(done) }()
	select {
	case <-done:
		if code != exitBadInput || !strings.Contains(msg, path) || !strings.Contains(msg, "not a regular file") {
			t.Fatalf("exit %d, %q; want exit %d naming %s as not a regular file", code, msg, exitBadInput, path)
		}
	case <-time.After(time.Minute):
		t.Fatal("report merge of a shard.json that is a named pipe did not return in a minute")
	}
}
