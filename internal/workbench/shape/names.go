package shape

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tagName is a key tag as a Go name: "USER" User, "sh" Sh.
func tagName(tag string) string {
	if strings.ToUpper(tag) == tag {
		tag = strings.ToLower(tag)
	}
	return GoName(tag)
}

// GoName turns an attribute or facet name into an exported Go name:
// "GSI1-PK" GSI1PK, "first name" FirstName, "#likes" Likes.
func GoName(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r) // any letter or digit: Go identifiers are Unicode
	}
	out := b.String()
	if first, _ := utf8.DecodeRuneInString(out); out == "" || !unicode.IsUpper(first) {
		out = "A" + out // a digit, or a letter without case (名前): exported all the same
	}
	return out
}

func unique(name string, taken map[string]bool) string {
	out := name
	for i := 2; taken[out]; i++ {
		out = fmt.Sprintf("%s%d", name, i)
	}
	taken[out] = true
	return out
}

// uniqueNames gives entities distinct Go names.
func uniqueNames(es []*Entity) {
	taken := map[string]bool{"Entity": true, "Table": true, "Design": true, "Schema": true, "Samples": true, "Grown": true, "PageSize": true}
	for _, e := range es {
		e.Go = unique(e.Go, taken)
	}
}

// methodNames are the generated entity's methods, which no field or key
// part may be named.
func methodNames() map[string]bool { return map[string]bool{"Item": true} }

// takenNames are the Go names a new field of e may not take: its methods,
// its fields and its key parts.
func (e *Entity) takenNames() map[string]bool {
	taken := methodNames()
	for _, f := range e.Fields {
		taken[f.Go] = true
	}
	for _, v := range e.Vars {
		taken[v.Go] = true
	}
	return taken
}
