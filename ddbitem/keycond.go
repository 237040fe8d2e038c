package ddbitem

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// PartitionValue finds the value a Query's key condition gives the
// partition key attribute pk: every key condition holds one equality on it.
// A Query that finds nothing still reads that partition.
func PartitionValue(cond string, names map[string]string, values map[string]types.AttributeValue, pk string) (types.AttributeValue, bool) {
	toks, err := tokenize(cond)
	if err != nil {
		return nil, false
	}
	r := &exprReader{expr: cond, toks: toks, names: names, values: values}
	for i := 0; i+2 < len(toks); i++ {
		a, eq, b := toks[i], toks[i+1], toks[i+2]
		if eq.kind != tokPunct || eq.text != "=" {
			continue
		}
		if a.kind == tokValue {
			a, b = b, a
		}
		if a.kind != tokName || b.kind != tokValue {
			continue
		}
		if n, err := r.name(a); err != nil || n != pk {
			continue
		}
		if v, err := r.value(b); err == nil {
			return v, true
		}
	}
	return nil, false
}
