package jsontext

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// Edit is one change to an object's text: the members named in Drop
// taken out, those in Set given a new value (added at the end, in key
// order, when absent).
type Edit struct {
	Drop []string
	Set  map[string][]byte
}

// Apply is o's text with e made, every other byte as it was; o's own
// text, the same slice, when e changes nothing.
func (o Object) Apply(e Edit) []byte {
	var kept [][]byte
	done := map[string]bool{}
	changed := false
	for _, m := range o.members {
		if slices.Contains(e.Drop, m.Key) {
			changed = true
			continue
		}
		if v, ok := e.Set[m.Key]; ok {
			done[m.Key], changed = true, true
			kb, _ := json.Marshal(m.Key)
			kept = append(kept, append(append(kb, ':'), v...))
			continue
		}
		kept = append(kept, o.text[m.start:m.end])
	}
	// Added members go in key order, so the same edit gives the same bytes.
	for _, k := range slices.Sorted(maps.Keys(e.Set)) {
		if !done[k] {
			changed = true
			kb, _ := json.Marshal(k)
			kept = append(kept, append(append(kb, ':'), e.Set[k]...))
		}
	}
	if !changed {
		return o.text
	}
	// Members are joined as DynamoDB writes them, without space.
	open := bytes.IndexByte(o.text, '{')
	out := append([]byte{}, o.text[:open+1]...)
	out = append(out, bytes.Join(kept, []byte(","))...)
	return append(out, o.text[o.close:]...)
}
