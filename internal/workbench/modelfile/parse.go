package modelfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/scaffold"
)

// ErrBadModel is a model the harness cannot read; the error names the JSON
// path of the problem and how to fix it.
var ErrBadModel = errors.New("bad model")

// ModelError is one problem of a model, at a JSON path ("$.DataModel[0]
// .TableFacets[2].TableData[1].SK").
type ModelError struct {
	Path, Problem string
}

// Error is Printable: a model's names in it never reach a terminal raw.
func (e *ModelError) Error() string { return scaffold.Printable(e.Path + ": " + e.Problem) }

// Unwrap makes every ModelError an ErrBadModel.
func (e *ModelError) Unwrap() error { return ErrBadModel }

// PathErr is a ModelError at path, saying what is wrong there and the fix.
func PathErr(path, problem string) error { return &ModelError{Path: path, Problem: problem} }

// Parse reads a model and checks everything the import relies on: the
// keys and indexes are declared, each facet's aliases name the table's
// keys, and every sample item has its key, of the declared type, once.
func Parse(data []byte) (ModelFile, error) { return ParseContext(context.Background(), data) }

// ParseContext is Parse that stops, with ctx's error, once ctx ends: a model of
// many sample items takes seconds to check.
func ParseContext(ctx context.Context, data []byte) (ModelFile, error) {
	m, isMCP, err := fromMCP(data)
	if err != nil {
		return m, err
	}
	if isMCP {
		return m, checkTables(ctx, &m)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && strings.Contains(se.Error(), "exceeded max depth") {
			return m, PathErr("$", fmt.Sprintf("nested deeper than a JSON reader follows (%s): a sample item nests at most %d levels in DynamoDB, so flatten the deepest value", syntaxAt(data, err), ddbitem.MaxNestingLevels))
		}
		if errors.As(err, &se) {
			return m, PathErr("$", fmt.Sprintf("not JSON (%v): export the model again from NoSQL Workbench (Export model, NoSQL Workbench model format)", syntaxAt(data, err)))
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Value == "array" && (strings.HasSuffix(te.Field, "KeyAttributes.PartitionKey") || strings.HasSuffix(te.Field, "KeyAttributes.SortKey")) {
			// Workbench's model keys an index by one attribute per side:
			// a list there is a multi-attribute key, which only the MCP
			// data model's KeySchema carries.
			return m, PathErr("$."+te.Field, "a list of attributes: a NoSQL Workbench model keys a table or an index by one partition key attribute and one sort key attribute, so it cannot hold a multi-attribute key; give the GSI's key as the DynamoDB MCP server's data model does (a KeySchema with a HASH entry per partition key attribute, then a RANGE entry per sort key attribute, up to 4 each), which import-model reads, or key it by one attribute each")
		}
		if errors.As(err, &te) {
			return m, PathErr("$."+te.Field, fmt.Sprintf("a JSON %s where the model format wants a %s", te.Value, te.Type))
		}
		return m, PathErr("$", "not a NoSQL Workbench model: "+err.Error())
	}
	if md := m.ModelMetadata; md != nil && md.Harness != nil {
		for i := range m.DataModel {
			m.DataModel[i].TypeAttr = md.Harness.TypeAttribute
		}
	}
	return m, checkTables(ctx, &m)
}

// checkTables checks each table of m, keeping those it can import.
func checkTables(ctx context.Context, m *ModelFile) error {
	if len(m.DataModel) == 0 {
		return PathErr("$.DataModel", "missing or empty: a NoSQL Workbench model lists its tables in DataModel (is this a CloudFormation template or a table export? export the model in NoSQL Workbench model format)")
	}
	names := map[string]bool{}
	var kept []Table
	for i := range m.DataModel {
		t := &m.DataModel[i]
		at := fmt.Sprintf("$.DataModel[%d]", i)
		if err := readTable(ctx, t, at); err != nil && (len(m.DataModel) == 1 || !nonKeyValue(*t, err)) {
			return err
		} else if err != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("table %q not imported: %v", t.TableName, err))
			continue
		}
		if names[t.TableName] {
			return PathErr(at+".TableName", fmt.Sprintf("table %q appears twice: give each table its own name", t.TableName))
		}
		names[t.TableName] = true
		kept = append(kept, *t)
	}
	if len(kept) == 0 {
		return PathErr("$.DataModel", "no table could be imported: "+strings.Join(m.Notes, "; "))
	}
	m.DataModel = kept
	return nil
}

func syntaxAt(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:se.Offset], []byte("\n"))
		return fmt.Sprintf("line %d: %v", line, se)
	}
	return fmt.Sprint(err)
}

// readTable checks table t of a model, at path at, and reads it in: its
// index keys take their types from the table's attributes, and its sample
// items are decoded (Item.Attrs) and checked against its keys, the blank
// rows Workbench saves dropped with a note.
func readTable(ctx context.Context, t *Table, at string) error {
	declared, err := checkAttributes(*t, at)
	if err != nil {
		return err
	}
	if err := checkIndexes(*t, at, declared); err != nil {
		return err
	}
	t.typeIndexKeys()
	if err := checkFacets(*t, at, declared); err != nil {
		return err
	}
	return readSamples(ctx, t, at)
}

// checkAttributes checks t's name, key and non-key attributes, and returns
// the type of each attribute it declares, by name.
func checkAttributes(t Table, at string) (map[string]string, error) {
	if t.TableName == "" {
		return nil, PathErr(at+".TableName", "missing: every table needs a name")
	}
	if err := checkKey(t.KeyAttributes, at+".KeyAttributes", true); err != nil {
		return nil, err
	}
	declared := map[string]string{t.KeyAttributes.PartitionKey.AttributeName: t.KeyAttributes.PartitionKey.AttributeType}
	if sk := t.KeyAttributes.SortKey; sk != nil {
		declared[sk.AttributeName] = sk.AttributeType
	}
	for j, a := range t.NonKeyAttributes {
		p := fmt.Sprintf("%s.NonKeyAttributes[%d]", at, j)
		if a.AttributeName == "" {
			return nil, PathErr(p+".AttributeName", "missing")
		}
		if !validType(a.AttributeType) {
			return nil, PathErr(p+".AttributeType", fmt.Sprintf("%q: want S, N, B, BOOL, NULL, SS, NS, BS, M or L", a.AttributeType))
		}
		if strings.Contains(a.AttributeName, ",") || a.AttributeName == "-" {
			return nil, PathErr(p+".AttributeName", fmt.Sprintf("%q cannot be a Go attribute tag (a comma ends the name, a lone - skips the field): rename it in the model", a.AttributeName))
		}
		declared[a.AttributeName] = a.AttributeType
	}
	return declared, nil
}

// checkIndexes checks t's indexes: each named once, its keys agreeing with
// the attributes' types, which it adds to declared, and its projection.
func checkIndexes(t Table, at string, declared map[string]string) error {
	seen := map[string]bool{}
	for _, list := range []struct {
		name string
		ixs  []Index
	}{{"GlobalSecondaryIndexes", t.GlobalSecondaryIndexes}, {"LocalSecondaryIndexes", t.LocalSecondaryIndexes}} {
		for j, ix := range list.ixs {
			p := fmt.Sprintf("%s.%s[%d]", at, list.name, j)
			if ix.IndexName == "" {
				return PathErr(p+".IndexName", "missing: every index needs a name")
			}
			if ix.IndexName == designs.MainTable {
				return PathErr(p+".IndexName", fmt.Sprintf("%q is what the catalog and the spec labels call the table itself: rename the index", ix.IndexName))
			}
			if seen[ix.IndexName] {
				return PathErr(p+".IndexName", fmt.Sprintf("index %q declared twice", ix.IndexName))
			}
			seen[ix.IndexName] = true
			if err := checkKey(ix.KeyAttributes, p+".KeyAttributes", false); err != nil {
				return err
			}
			for _, k := range KeyAttrs(ix.KeyAttributes) {
				if d, ok := declared[k.AttributeName]; ok && d != k.AttributeType && k.AttributeType != "" {
					return PathErr(p+".KeyAttributes", fmt.Sprintf("%s is %s here and %s in the table's attributes: make them agree", k.AttributeName, k.AttributeType, d))
				}
				if k.AttributeType != "" {
					declared[k.AttributeName] = k.AttributeType
				}
			}
			switch ix.Projection.ProjectionType {
			case "", "ALL", "KEYS_ONLY", "INCLUDE":
			default:
				return PathErr(p+".Projection.ProjectionType", fmt.Sprintf("%q: want ALL, KEYS_ONLY or INCLUDE", ix.Projection.ProjectionType))
			}
		}
	}
	return nil
}

// checkFacets checks t's facets: each named once, naming the table's keys,
// and declaring only attributes the table declares.
func checkFacets(t Table, at string, declared map[string]string) error {
	facets := map[string]bool{}
	for j := range t.TableFacets {
		f := t.TableFacets[j]
		p := fmt.Sprintf("%s.TableFacets[%d]", at, j)
		if f.FacetName == "" {
			return PathErr(p+".FacetName", "missing: every facet needs a name")
		}
		if facets[f.FacetName] {
			return PathErr(p+".FacetName", fmt.Sprintf("facet %q appears twice", f.FacetName))
		}
		facets[f.FacetName] = true
		if f.KeyAttributeAlias.PartitionKeyAlias == "" {
			return PathErr(p+".KeyAttributeAlias.PartitionKeyAlias", "missing: the facet must name the table's partition key")
		}
		switch {
		case t.KeyAttributes.SortKey == nil && f.KeyAttributeAlias.SortKeyAlias != "":
			return PathErr(p+".KeyAttributeAlias.SortKeyAlias", fmt.Sprintf("%q names no key: the table has no sort key (remove the alias, or add a SortKey to the table)", f.KeyAttributeAlias.SortKeyAlias))
		case t.KeyAttributes.SortKey != nil && f.KeyAttributeAlias.SortKeyAlias == "":
			return PathErr(p+".KeyAttributeAlias.SortKeyAlias", "missing: the table has a sort key, so each facet names it")
		}
		for k, a := range f.NonKeyAttributes {
			if _, ok := declared[a]; !ok {
				return PathErr(fmt.Sprintf("%s.NonKeyAttributes[%d]", p, k), fmt.Sprintf("%q is not among the table's NonKeyAttributes: declare it there with its type", a))
			}
		}
	}
	return nil
}

// readSamples decodes t's sample items, on the table and on each facet,
// checks each against t's keys (and the type of each index key), and
// drops the blank rows Workbench saves, with a note.
func readSamples(ctx context.Context, t *Table, at string) error {
	indexKeys := map[string]string{}
	for _, ix := range slices.Concat(t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes) {
		for _, k := range KeyAttrs(ix.KeyAttributes) {
			indexKeys[k.AttributeName] = k.AttributeType
		}
	}
	keys := map[string]string{}
	check := func(items []Item, p string) ([]Item, error) {
		kept := items[:0:0]
		for k := range items {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ip := fmt.Sprintf("%s.TableData[%d]", p, k)
			if len(bytes.TrimSpace(items[k].raw)) > 0 && string(bytes.Join(bytes.Fields(items[k].raw), nil)) == "{}" {
				t.Notes = append(t.Notes, ip+": a blank row (Workbench saves one for an empty line): skipped")
				continue
			}
			attrs, err := decodeItem(items[k].raw, ip)
			if err != nil {
				return nil, err
			}
			items[k].Attrs = attrs
			if err := checkSample(t, attrs, indexKeys, ip, keys); err != nil {
				return nil, err
			}
			kept = append(kept, items[k])
		}
		return kept, nil
	}
	for j := range t.TableFacets {
		items, err := check(t.TableFacets[j].TableData, fmt.Sprintf("%s.TableFacets[%d]", at, j))
		if err != nil {
			return err
		}
		t.TableFacets[j].TableData = items
	}
	items, err := check(t.TableData, at)
	t.TableData = items
	return err
}

// nonKeyValue says err is a bad value of an attribute that is no key of
// t (a sample's text where a number should be, say): what refuses only
// that table of a larger model.
func nonKeyValue(t Table, err error) bool {
	var me *ModelError
	if !errors.As(err, &me) || !strings.Contains(me.Path, ".TableData[") {
		return false
	}
	_, attr, _ := strings.Cut(me.Path[strings.LastIndex(me.Path, ".TableData["):], "].")
	if attr == "" {
		return false
	}
	for _, k := range t.KeyNames() {
		if attr == k || strings.HasPrefix(attr, k+".") {
			return false
		}
	}
	return true
}

// checkSample refuses an item without its key, with an index key of
// another type than declared, or with the key of an earlier item. Other
// attributes may vary in type from item to item, as DynamoDB lets them.
func checkSample(t *Table, item map[string]types.AttributeValue, indexKeys map[string]string, at string, keys map[string]string) error {
	for _, k := range KeyAttrs(t.KeyAttributes) {
		v, ok := item[k.AttributeName]
		if !ok {
			return PathErr(at, fmt.Sprintf("has no %s, part of the table's key: every sample item needs its whole key", k.AttributeName))
		}
		if ddbitem.TypeName(v) != k.AttributeType {
			return PathErr(at+"."+k.AttributeName, fmt.Sprintf("is %s, the key is declared %s", ddbitem.TypeName(v), k.AttributeType))
		}
		if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == "" {
			return PathErr(at+"."+k.AttributeName, "is empty text, which DynamoDB refuses in a key attribute: give the sample its key")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(item)) {
		v := item[name]
		if d, ok := indexKeys[name]; ok && d != "" && d != ddbitem.TypeName(v) {
			return PathErr(at+"."+name, fmt.Sprintf("is %s, a key of an index declared %s: DynamoDB would refuse the item (make the sample and the declaration agree)", ddbitem.TypeName(v), d))
		}
	}
	ks := ddbitem.Schema{PK: t.KeyAttributes.PartitionKey.AttributeName}
	if sk := t.KeyAttributes.SortKey; sk != nil {
		ks.SK = sk.AttributeName
	}
	key, _ := ks.KeyID(item)
	if first, ok := keys[key]; ok { // numbers by value: 1 and 1.0 are one item to DynamoDB
		return PathErr(at, fmt.Sprintf("has the same key as %s (%s): DynamoDB keeps one item per key, so give each sample its own", first, ks.KeyText(item)))
	}
	keys[key] = at
	return nil
}

func checkKey(k KeyAttributes, at string, table bool) error {
	type named struct {
		name string
		a    *Attribute
	}
	keys := []named{{"PartitionKey", &k.PartitionKey}, {"SortKey", k.SortKey}}
	if k.multi() { // a multi-attribute key's attributes, each by its place in its side's list
		keys = nil
		for i, a := range k.partition() {
			keys = append(keys, named{fmt.Sprintf("PartitionKeys[%d]", i), &a})
		}
		for i, a := range k.sort() {
			keys = append(keys, named{fmt.Sprintf("SortKeys[%d]", i), &a})
		}
	}
	for _, key := range keys {
		a := key.a
		if a == nil {
			continue
		}
		if a.AttributeName == "" {
			return PathErr(at+"."+key.name+".AttributeName", "missing: a key needs an attribute name")
		}
		if a.AttributeType != "S" && a.AttributeType != "N" && a.AttributeType != "B" && (table || a.AttributeType != "") {
			return PathErr(at+"."+key.name+".AttributeType", fmt.Sprintf("%q: a key attribute is S, N or B", a.AttributeType))
		}
	}
	return nil
}

// KeyAttrs is every attribute of k: its partition key's, then its sort
// key's, each in order.
func KeyAttrs(k KeyAttributes) []Attribute {
	return append(slices.Clone(k.partition()), k.sort()...)
}

func validType(t string) bool {
	switch t {
	case "S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "M", "L":
		return true
	}
	return false
}

// Samples is every sample item of t, facets first in their order, then the
// table's own.
func (t Table) Samples() []map[string]types.AttributeValue {
	var out []map[string]types.AttributeValue
	for _, f := range t.TableFacets {
		for _, it := range f.TableData {
			out = append(out, it.Attrs)
		}
	}
	for _, it := range t.TableData {
		out = append(out, it.Attrs)
	}
	return out
}
