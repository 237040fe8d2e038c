package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// signed lists the fields among those a merge sums whose values may be
// below 0 (path as checkShardFile names it, with [] for any index): bytes
// a run's writes removed (a pattern that shrinks or deletes items grows
// the table by less than 0), the bytes a run knows of a key once it
// removed entries written before it (a GSI key's entry that moved away),
// and a position in time.
var signed = map[string]bool{
	"ledger.patterns[].bytes_grown":                 true,
	"ledger.collections[].added_bytes":              true,
	"ledger.collections[].known_bytes":              true,
	"ledger.index_keys[].added_bytes":               true,
	"ledger.index_keys[].known_bytes":               true,
	"throttling.partitions[].first_throttle_second": true,
}

// formerly are the fields of a shard file that older files spell
// otherwise (path as checkShardFile names it, with [] for any index), by
// the name they had: the reader takes either (emulate.Throttling's
// UnmarshalJSON).
var formerly = map[string]string{
	"throttling.limits_scale": "scale",
}

// summed are the parts of a shard file whose figures a merge adds up.
var summed = map[string]bool{
	"run.Workers": true, "run.Unsent": true, "run.CutOff": true, "run.LateStart": true,
	"fidelity": true, "model_inputs": true, "ledger": true, "throttling": true, "denied": true, "served": true,
}

// checkShardFile checks raw, a shard file as read, against f, what it
// decoded to: every field the writer always writes (those without
// omitempty) is there and not null, so that a count cut out of the file
// is not summed as 0; and every figure a merge sums is 0 or more. The
// error names the field by its JSON path (throttling.patterns[0].calls).
func checkShardFile(raw []byte, f any) error {
	canon, err := json.Marshal(f)
	if err != nil {
		return err
	}
	var want, got any
	if err := json.Unmarshal(canon, &want); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&got); err != nil {
		return err
	}
	return walkShard(got, want, "", "", false)
}

// walkShard compares got (the file) with want (what the writer writes for
// it) at path; generic is path with every index as [].
func walkShard(got, want any, path, generic string, sum bool) error {
	sum = sum || summed[generic]
	switch w := want.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(w)) {
			wv := w[k]
			p, gp := join(path, k), join(generic, k)
			gv, ok := g[k]
			if old := formerly[gp]; !ok && old != "" {
				gv, ok = g[old]
			}
			switch {
			case !ok:
				return fmt.Errorf("%s is missing: the file was edited or damaged", p)
			case gv == nil && wv != nil:
				return fmt.Errorf("%s is null: the file was edited or damaged", p)
			}
			if err := walkShard(gv, wv, p, gp, sum); err != nil {
				return err
			}
		}
	case []any:
		g, _ := got.([]any)
		for i, wv := range w {
			if i >= len(g) {
				break
			}
			if err := walkShard(g[i], wv, path+"["+strconv.Itoa(i)+"]", generic+"[]", sum); err != nil {
				return err
			}
		}
	default:
		if n, ok := got.(json.Number); ok && sum && !signed[generic] && strings.HasPrefix(n.String(), "-") && n.String() != "-0" {
			return fmt.Errorf("%s is %s: a count is 0 or more; the file was edited or damaged", path, n)
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
