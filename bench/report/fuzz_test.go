package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
	"github.com/ddbharness/ddbharness/scenarios"
)

// FuzzShardFile reads a shard.json a user hands to report merge: whatever
// its bytes, the shard is refused or merged, never a panic.
func FuzzShardFile(f *testing.F) {
	good, err := json.Marshal(bench.ShardFile{Format: bench.ShardFormat, Shard: engine.ShardSpec{I: 1, N: 1, Run: "r"},
		Run: engine.Outcome{Scenario: scenarios.ShopBrowse.Name}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"` + bench.ShardFormat + `","shard":{"I":5,"N":2,"Run":"r"},"run":{"Scenario":"shop/browse"}}`))
	f.Add([]byte(`{"format":"` + bench.ShardFormat + `","shard":{"I":1,"N":1},"run":{"Scenario":"shop/browse","Started":"2026-01-01T00:00:00Z"},"model_inputs":{"requests":-7},"ledger":{"format":"x"}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ShardFile), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ResultsFile), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := ReadShard(t.Context(), dir)
		if err != nil {
			return
		}
		_, _ = bench.Merge(t.Context(), scenarios.ShopBrowse, []bench.Shard{s})
	})
}
