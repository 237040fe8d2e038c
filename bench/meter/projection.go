package meter

import (
	"maps"
	"strings"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// keyPlaceholders name the key attributes the client adds to a projection.
var keyPlaceholders = [2]string{"#ddbhPK", "#ddbhSK"}

// withKeys adds the table's key attributes to a read's projection when the
// pattern left them out, so that the client can find each item it read in
// its shadow. Keys are in every index entry and add a few bytes to the
// response, no capacity. It returns what to send and the attributes it
// added, which stripKeys takes out again before the pattern sees the items.
func (c *Client) withKeys(proj *string, names map[string]string) (*string, map[string]string, []string) {
	if proj == nil {
		return nil, names, nil
	}
	have := projected(*proj, names)
	var added []string
	expr, all := *proj, names
	for i, attr := range []string{c.schema.PK, c.schema.SK} {
		if attr == "" || have[attr] {
			continue
		}
		if added == nil {
			all = maps.Clone(names)
			if all == nil {
				all = map[string]string{}
			}
		}
		all[keyPlaceholders[i]] = attr
		expr += ", " + keyPlaceholders[i]
		added = append(added, attr)
	}
	if added == nil {
		return proj, names, nil
	}
	return &expr, all, added
}

// projected lists the top-level attributes a projection names.
func projected(proj string, names map[string]string) map[string]bool {
	have := map[string]bool{}
	for _, path := range strings.Split(proj, ",") {
		first := strings.TrimSpace(path)
		if i := strings.IndexAny(first, ".["); i >= 0 {
			first = first[:i]
		}
		if n, ok := names[first]; ok {
			first = n
		}
		have[first] = true
	}
	return have
}

// stripKeys takes the attributes withKeys added out of the items.
func stripKeys(items []ddbitem.Item, added []string) {
	for _, it := range items {
		for _, a := range added {
			delete(it, a)
		}
	}
}
