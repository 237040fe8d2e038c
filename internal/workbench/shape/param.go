package shape

import (
	"go/token"
	"slices"
	"unicode"
)

// paramTaken are the names a parameter cannot take: the generated
// functions' locals and named results, the package's functions they call,
// and the packages they use.
var paramTaken = []string{"ctx", "after", "t", "v", "av", "err", "out", "key", "items", "next", "page", "ok", "e", "it", "decode", "decoders",
	"string", "any", "aws", "attributevalue", "bytes", "context", "designs", "dynamodb", "expression", "fmt", "slices", "strings", "types"}

// Param is the variable's name as a function parameter.
func (v *Var) Param() string {
	r := []rune(v.Go)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	if i > 1 && i < len(r) {
		i--
	}
	for j := range i {
		r[j] = unicode.ToLower(r[j])
	}
	out := string(r)
	if token.IsKeyword(out) || slices.Contains(paramTaken, out) {
		out += "Part"
	}
	return out
}
