package workbench_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape/shapetest"
)

// withTraffic is testdata/mcp_shop.json with each listed access pattern
// (by its place in the list) given the fields of its declared traffic.
func withTraffic(t *testing.T, traffic map[int]map[string]any) []byte {
	t.Helper()
	return edited(t, "mcp_shop.json", func(m map[string]any) {
		aps := m["access_patterns"].([]any)
		for i, fields := range traffic {
			for k, v := range fields {
				aps[i].(map[string]any)[k] = v
			}
		}
	})
}

// A model that declares each access pattern's rate at peak makes the
// default scenario of that traffic: the declared patterns weighted by
// their rates, the declared peak their sum, the import's own gets and
// queries left out; a rate on a pattern that was not generated is left
// out with a note (13, an external service's), and the catalog's docs carry what was declared.
func TestDeclaredTrafficIsTheDefaultScenario(t *testing.T) {
	d := shapetest.Infer(t, "mcpshop", withTraffic(t, map[int]map[string]any{
		0: {"rps": 300, "item_size_bytes": 1200}, 1: {"rps": 100}, 2: {"rps": 50}, 4: {"rps": 40}, 10: {"rps": 10}, 12: {"rps": 5},
	}))
	files, err := workbench.Files(d, "dynamodb_data_model")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = string(f.Content)
	}
	sc := out["scenarios/mcpshop.go"]
	mix := sc[strings.Index(sc, "Mix: []workload.Step{"):]
	mix = mix[:strings.Index(mix, "},\n\tDriver")]
	var steps []string
	for _, line := range strings.Split(mix, "\n")[1:] {
		if line = strings.TrimSpace(line); line != "" {
			steps = append(steps, line)
		}
	}
	want := []string{
		"{Pattern: mcpshop.AP1GetAUserSProfileID, Weight: 600},",
		"{Pattern: mcpshop.AP2AUserSLatestOrderID, Weight: 200},",
		"{Pattern: mcpshop.AP3PendingOrdersOverAID, Weight: 100},",
		"{Pattern: mcpshop.AP5SignUpAUserID, Weight: 80},",
		"{Pattern: mcpshop.AP11ShipAnOrderID, Weight: 20},",
	}
	if !slices.Equal(steps, want) {
		t.Errorf("the mix is\n%s\nwant\n%s", strings.Join(steps, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{"DeclaredPeak: 500,", `"the imported model's access patterns at the rates it declares, 500 requests/s at peak"`} {
		if !strings.Contains(sc, s) {
			t.Errorf("the scenario does not say %s:\n%s", s, sc)
		}
	}
	if !slices.ContainsFunc(d.Notes, func(n string) bool {
		return strings.HasPrefix(n, "access pattern 13 ") && strings.HasSuffix(n, "its declared 5 requests/s are left out of the default scenario")
	}) {
		t.Errorf("no note says pattern 13's rate is left out: %q", d.Notes)
	}
	if !strings.Contains(out["designs/mcpshop/catalog.go"], `Get a user's profile; declared at 300 requests/s at peak, items of 1200 bytes`) {
		t.Error("the catalog's doc of pattern 1 does not carry its declared traffic")
	}

	plain := mcpShop(t)
	files, err = workbench.Files(plain, "dynamodb_data_model")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path == "scenarios/mcpshop.go" && (strings.Contains(string(f.Content), "DeclaredPeak") || !strings.Contains(string(f.Content), "mcpshop.GetPROFILEID, Weight: 10")) {
			t.Errorf("a model that declares no traffic changed its scenario:\n%s", f.Content)
		}
	}
}

// Declared traffic no traffic can be is refused with its path.
func TestImpossibleDeclaredTrafficIsRefused(t *testing.T) {
	for _, tc := range []struct {
		fields map[string]any
		want   string
	}{
		{map[string]any{"rps": 0}, "$.access_patterns[0].rps: 0: the pattern's requests per second at peak must be above 0"},
		{map[string]any{"rps": -3}, "$.access_patterns[0].rps: -3:"},
		{map[string]any{"item_size_bytes": 500000}, "$.access_patterns[0].item_size_bytes: 500000: an item's size is a whole number of bytes from 1 to 409600"},
		{map[string]any{"item_size_bytes": 1.5}, "$.access_patterns[0].item_size_bytes: 1.5:"},
	} {
		_, err := modelfile.Parse(withTraffic(t, map[int]map[string]any{0: tc.fields}))
		if !errors.Is(err, modelfile.ErrBadModel) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want it refused saying %q", tc.fields, err, tc.want)
		}
	}
}
