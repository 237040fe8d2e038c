package workbench_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
	"github.com/ddbharness/ddbharness/internal/workbench/shape"
)

// A model of many samples gets at most MaxSpecsPerPattern specs a pattern,
// and one note says so: the gallery's users grown to 250, each in a
// partition of its own, give the get pattern 100 entries and the query of
// the users' partition 100 partitions.
func TestSpecsPerPatternAreBoundedAndSaidOnce(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(gallery(t), &m); err != nil {
		t.Fatal(err)
	}
	users := m["DataModel"].([]any)[0].(map[string]any)["TableFacets"].([]any)[0].(map[string]any)
	first := users["TableData"].([]any)[0].(map[string]any)
	var grown []any
	for i := range 250 {
		it := map[string]any{}
		for k, v := range first {
			it[k] = v
		}
		it["PK"] = map[string]any{"S": fmt.Sprintf("USER#u%03d", i)}
		it["GSI1PK"] = map[string]any{"S": fmt.Sprintf("EMAIL#u%03d@example.com", i)}
		it["GSI1SK"] = map[string]any{"S": fmt.Sprintf("USER#u%03d", i)}
		grown = append(grown, it)
	}
	users["TableData"] = grown
	b, _ := json.Marshal(m)

	pm, err := modelfile.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	d, err := shape.Infer("gallery", pm.DataModel[0])
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // rendering twice says it once
		if _, err := workbench.Files(d, pm.ModelName); err != nil {
			t.Fatal(err)
		}
	}
	files, err := workbench.Files(d, pm.ModelName)
	if err != nil {
		t.Fatal(err)
	}
	var specs string
	for _, f := range files {
		if strings.HasSuffix(f.Path, "patterns_test.go") {
			specs = string(f.Content)
		}
	}
	get := specs[strings.Index(specs, `"returns each sample user by its key"`):]
	get = get[:strings.Index(get, "\n\t)")]
	if n := strings.Count(get, "Entry("); n != workbench.MaxSpecsPerPattern {
		t.Errorf("the users' get pattern has %d entries, want %d", n, workbench.MaxSpecsPerPattern)
	}
	notes := 0
	for _, n := range d.Notes {
		if strings.Contains(n, fmt.Sprintf("take the first %d samples", workbench.MaxSpecsPerPattern)) {
			notes++
			var most int
			if _, err := fmt.Sscanf(n[strings.Index(n, "of up to "):], "of up to %d", &most); err != nil || most < 250 {
				t.Errorf("note %q does not give the largest count, 250 or more", n)
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d notes on the bound, want 1: %q", notes, d.Notes)
	}
}
