package designs

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// MaxKeyAttributes is how many attributes a GSI's partition key, and its
// sort key, may each be made of (ddbitem, where every limit is stated with
// its source).
const MaxKeyAttributes = ddbitem.MaxKeyAttributes

// CheckKeys reports the first index key DynamoDB's CreateTable would
// refuse: a GSI without a partition key, or with more than
// MaxKeyAttributes attributes in either key; a key given both as one
// attribute and as a list; an LSI with a multi-attribute key; an
// attribute named twice in one index's key.
func (s Schema) CheckKeys() error {
	check := func(ix Index, local bool) error {
		switch {
		case ix.PK != "" && len(ix.PKs) > 0:
			return fmt.Errorf("index %s: partition key given both as PK %q and as PKs %q: keep PK for one attribute, PKs for several", ix.Name, ix.PK, ix.PKs)
		case ix.SK != "" && len(ix.SKs) > 0:
			return fmt.Errorf("index %s: sort key given both as SK %q and as SKs %q: keep SK for one attribute, SKs for several", ix.Name, ix.SK, ix.SKs)
		case local && (ix.PK != "" || len(ix.PKs) > 0):
			return fmt.Errorf("LSI %s: an LSI shares the table's partition key %s: leave its PK and PKs empty", ix.Name, s.PK)
		case local && len(ix.SKs) > 1:
			return fmt.Errorf("LSI %s: sort key of %d attributes %q: an LSI's sort key is one attribute (multi-attribute keys are for GSIs): use a GSI, or one SK", ix.Name, len(ix.SKs), ix.SKs)
		case !local && len(ix.PartitionAttrs()) == 0:
			return fmt.Errorf("GSI %s has no partition key: set PK, or PKs for a multi-attribute key", ix.Name)
		case len(ix.PKs) > MaxKeyAttributes || len(ix.SKs) > MaxKeyAttributes:
			return fmt.Errorf("GSI %s: a key of %d attributes: DynamoDB allows up to %d in its partition key and %d in its sort key", ix.Name, max(len(ix.PKs), len(ix.SKs)), MaxKeyAttributes, MaxKeyAttributes)
		}
		all := append(ix.PartitionAttrs(), ix.SortAttrs()...)
		for i, a := range all {
			if a == "" {
				return fmt.Errorf("index %s: an empty attribute name in its key %q", ix.Name, all)
			}
			if slices.Contains(all[:i], a) {
				return fmt.Errorf("index %s: attribute %s named twice in its key %q: name each once", ix.Name, a, all)
			}
		}
		return nil
	}
	for _, ix := range s.GSIs {
		if err := check(ix, false); err != nil {
			return err
		}
	}
	for _, ix := range s.LSIs {
		if err := check(ix, true); err != nil {
			return err
		}
	}
	return nil
}

// KeyQuery builds the key condition of a Query of the table or of one of
// its indexes, a condition per key attribute, checked against the index's
// key before any call (Build). Start it with Schema.KeyQuery:
//
//	key, err := Schema.KeyQuery("ByTenantRegion").
//		Equal("tenantId", "t1").Equal("regionCode", "eu").
//		Equal("orderStatus", "open").Between("createdAt", from, to).Build()
type KeyQuery struct {
	schema Schema
	index  string
	terms  []keyTerm
}

// keyTerm is one attribute's condition: attr op values.
type keyTerm struct {
	attr   string
	op     string
	values []any
}

// KeyQuery starts the key condition of a Query of index (empty: the table).
func (s Schema) KeyQuery(index string) KeyQuery { return KeyQuery{schema: s, index: index} }

func (k KeyQuery) with(attr, op string, values ...any) KeyQuery {
	k.terms = append(slices.Clip(k.terms), keyTerm{attr, op, values})
	return k
}

// Equal gives attr the value v.
func (k KeyQuery) Equal(attr string, v any) KeyQuery { return k.with(attr, "=", v) }

// LessThan keeps the entries whose attr is below v.
func (k KeyQuery) LessThan(attr string, v any) KeyQuery { return k.with(attr, "<", v) }

// LessThanEqual keeps the entries whose attr is v or below.
func (k KeyQuery) LessThanEqual(attr string, v any) KeyQuery { return k.with(attr, "<=", v) }

// GreaterThan keeps the entries whose attr is above v.
func (k KeyQuery) GreaterThan(attr string, v any) KeyQuery { return k.with(attr, ">", v) }

// GreaterThanEqual keeps the entries whose attr is v or above.
func (k KeyQuery) GreaterThanEqual(attr string, v any) KeyQuery { return k.with(attr, ">=", v) }

// Between keeps the entries whose attr is from lo to hi, both included.
func (k KeyQuery) Between(attr string, lo, hi any) KeyQuery { return k.with(attr, "BETWEEN", lo, hi) }

// BeginsWith keeps the entries whose attr (a string) starts with prefix.
func (k KeyQuery) BeginsWith(attr, prefix string) KeyQuery {
	return k.with(attr, "begins_with", prefix)
}

// Build returns the key condition, for a PageQuery or the SDK's expression
// builder. A condition DynamoDB would refuse is refused here first, with
// DynamoDB's ValidationException wrapped in ErrInvalidInput: a partition
// key attribute without an equality, a sort key attribute skipped or
// given a range before the last one named, an attribute outside the key,
// two conditions on one attribute, a value of another type than its
// attribute's, an index the schema does not declare.
func (k KeyQuery) Build() (expression.KeyConditionBuilder, error) {
	items := k.schema.ItemSchema()
	where := "the table"
	if k.index != "" {
		where = "index " + k.index
		if _, ok := items.Index(k.index); !ok {
			return expression.KeyConditionBuilder{}, fmt.Errorf("%w: query of %s: the schema declares no such index", ErrInvalidInput, where)
		}
	}
	cond := ddbitem.Condition{Names: map[string]string{}, Values: map[string]types.AttributeValue{}}
	avs := make([][]types.AttributeValue, len(k.terms))
	for i, t := range k.terms {
		name := "#k" + strconv.Itoa(i)
		cond.Names[name] = t.attr
		var vals []string
		for j, v := range t.values {
			av, err := marshalKey(v)
			if err != nil {
				return expression.KeyConditionBuilder{}, fmt.Errorf("%w: query of %s: %s: %w", ErrInvalidInput, where, t.attr, err)
			}
			avs[i] = append(avs[i], av)
			p := ":k" + strconv.Itoa(i) + "_" + strconv.Itoa(j)
			cond.Values[p] = av
			vals = append(vals, p)
		}
		if i > 0 {
			cond.Expr += " AND "
		}
		switch t.op {
		case "BETWEEN":
			cond.Expr += name + " BETWEEN " + vals[0] + " AND " + vals[1]
		case "begins_with":
			cond.Expr += "begins_with(" + name + ", " + vals[0] + ")"
		default:
			cond.Expr += name + " " + t.op + " " + vals[0]
		}
	}
	if err := items.CheckKeyCondition(k.index, cond); err != nil {
		return expression.KeyConditionBuilder{}, fmt.Errorf("%w: query of %s: %w", ErrInvalidInput, where, err)
	}
	return k.builder(avs), nil
}

// builder is the checked condition in the SDK's form, with the values as
// checked (avs, by term), the equalities before the one range as the SDK
// wants them.
func (k KeyQuery) builder(avs [][]types.AttributeValue) expression.KeyConditionBuilder {
	terms := slices.Clone(k.terms)
	for i := range terms {
		terms[i].values = []any{}
		for _, av := range avs[i] {
			terms[i].values = append(terms[i].values, av)
		}
	}
	slices.SortStableFunc(terms, func(a, b keyTerm) int {
		switch {
		case a.op == "=" && b.op != "=":
			return -1
		case a.op != "=" && b.op == "=":
			return 1
		}
		return 0
	})
	conds := make([]expression.KeyConditionBuilder, len(terms))
	for i, t := range terms {
		key := expression.Key(t.attr)
		v := func(j int) expression.ValueBuilder { return expression.Value(t.values[j]) }
		switch t.op {
		case "=":
			conds[i] = key.Equal(v(0))
		case "<":
			conds[i] = key.LessThan(v(0))
		case "<=":
			conds[i] = key.LessThanEqual(v(0))
		case ">":
			conds[i] = key.GreaterThan(v(0))
		case ">=":
			conds[i] = key.GreaterThanEqual(v(0))
		case "BETWEEN":
			conds[i] = key.Between(v(0), v(1))
		case "begins_with":
			conds[i] = key.BeginsWith(t.values[0].(*types.AttributeValueMemberS).Value) // BeginsWith takes a string
		}
	}
	if len(conds) == 1 {
		return conds[0]
	}
	return expression.KeyAnd(conds...)
}

// marshalKey is v as DynamoDB holds it: an AttributeValue as it is, any
// other value as the SDK's expression builder marshals it.
func marshalKey(v any) (types.AttributeValue, error) {
	if av, ok := v.(types.AttributeValue); ok {
		return av, nil
	}
	return attributevalue.Marshal(v)
}
