package lint

import (
	"fmt"
	"strings"
)

// render writes a finding's Found and LimitText from its figures, one way
// per check, so the sentences and the JSON numbers never disagree.
func (f Finding) render() (found, limit string) {
	m := f.Measured
	switch f.Check {
	case CheckPartitionKey:
		var listed, reasons []string
		for i, k := range f.Keys {
			if i < maxListedKeys {
				listed = append(listed, fmt.Sprintf("%s (%s entries)", k.Key, count(k.Entries)))
			}
			if k.Share > HotShare {
				reasons = append(reasons, fmt.Sprintf("%s holds %.0f%% of the entries", k.Key, 100*k.Share))
			}
		}
		if lowCardinality(m["distinct_keys"], m["entries"]) {
			reasons = append(reasons, fmt.Sprintf("only %s distinct key values for %s entries", count(m["distinct_keys"]), count(m["entries"])))
		}
		for _, t := range f.Types {
			reasons = append(reasons, fmt.Sprintf("%s entries stay on %s key value(s) while they grow from %s to %s",
				t.Type, count(t.Keys), count(t.FromEntries), count(t.Entries)))
		}
		more := ""
		if len(f.Keys) > maxListedKeys {
			more = fmt.Sprintf(" and %d more", len(f.Keys)-maxListedKeys)
		}
		found = fmt.Sprintf("constant or low-cardinality partition key %s: %s%s of %s entries at pool %s; %s",
			f.Attribute, strings.Join(listed, ", "), more, count(m["entries"]), count(f.Pool), strings.Join(reasons, "; "))
		limit = fmt.Sprintf("%s RCU and %s WCU per second per partition key value", count(int(f.Limit.Values[0].Value)), count(int(f.Limit.Values[1].Value)))
	case CheckLSICollection:
		var parts []string
		for _, k := range f.Keys {
			part := fmt.Sprintf("%s is %s", k.Key, bytesText(k.Bytes))
			if k.EntitiesAtLimit > 0 {
				part += fmt.Sprintf(" (%s at about %s entities)", bytesText(int(f.Limit.Values[0].Value)), count(k.EntitiesAtLimit))
			}
			parts = append(parts, part)
		}
		found = fmt.Sprintf("LSI %s indexes the item collections of constant partition keys, which grow with the data: %s at pool %s",
			f.Target, strings.Join(parts, ", "), count(f.Pool))
		limit = fmt.Sprintf("%s per item collection on a table with an LSI", bytesText(int(f.Limit.Values[0].Value)))
	case CheckItemGrowth:
		limit = fmt.Sprintf("%s per item", bytesText(int(f.Limit.Values[0].Value)))
		if len(f.Keys) == 0 {
			found = fmt.Sprintf("%s appends to %s, which no seeded item holds as a list or set", f.Pattern, f.Attribute)
			break
		}
		k := f.Keys[0]
		found = fmt.Sprintf("%s appends to %s; the largest seeded item holding it (%s) is %s with %s elements of about %d bytes: %s more appends reach %s",
			f.Pattern, f.Attribute, k.Key, bytesText(k.Bytes), count(m["elements"]), m["element_bytes"], count(m["appends_to_limit"]),
			bytesText(int(f.Limit.Values[0].Value)))
		if k.EntitiesAtLimit > 0 {
			found += fmt.Sprintf(", at about %s entities", count(k.EntitiesAtLimit))
		}
	case CheckTransaction:
		switch {
		case len(f.Names["bound"]) > 0:
			found = fmt.Sprintf("%s's action count follows its input with no bound", f.Pattern)
		case m["max_actions"] > 0:
			found = fmt.Sprintf("%s's largest input needs %d actions", f.Pattern, m["max_actions"])
		default:
			found = fmt.Sprintf("%s declares no MaxActions, so its action count is unknown", f.Pattern)
		}
		limit = fmt.Sprintf("%d actions per transaction", f.Limit.Values[0].Value)
	case CheckScan:
		found = fmt.Sprintf("%s is a Scan of %s", f.Pattern, f.Target)
		limit = fmt.Sprintf("%s per Scan page; every item read is billed", bytesText(int(f.Limit.Values[0].Value)))
	case CheckUnpagedQuery:
		if m["max_items"] == 0 {
			found = fmt.Sprintf("%s queries %s without a page cursor and declares no MaxItems bound", f.Pattern, f.Target)
		} else {
			found = fmt.Sprintf("%s returns up to %d entries of up to %s: %s, without a page cursor",
				f.Pattern, m["max_items"], bytesText(m["largest_entry_bytes"]), bytesText(m["page_bytes"]))
		}
		limit = fmt.Sprintf("%s per Query call", bytesText(int(f.Limit.Values[0].Value)))
	case CheckProjection:
		n := f.Names
		found = fmt.Sprintf("%s projects ALL, but its readers (%s) need only %s; %s of its %s is in unread attributes (%s)",
			f.Target, strings.Join(n["readers"], ", "), strings.Join(n["needed"], ", "), bytesText(m["unread_bytes"]), bytesText(m["bytes"]),
			strings.Join(n["unread"], ", "))
		limit = "an index entry is billed and stored at its full projected size"
	}
	return found, limit
}
