package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
)

// wire is one registry file and the line the scaffold adds to it.
type wire struct {
	path   string // relative to the root
	line   string // what is added, as people will read it
	add    func(src []byte) ([]byte, error)
	remove func(src []byte) ([]byte, error) // takes back add, and only add
}

// wiring is the whole registration of a design: one element in
// all.Designs (with its import) and one in scenarios.All. Both lists are
// plain values read by verify and bench, so nothing else needs an edit.
func wiring(n Names) []wire {
	design := n.Design + ".Design"
	scenario := pascal(n.Design) + "Steady"
	return []wire{
		{"designs/all/all.go", design, func(src []byte) ([]byte, error) {
			return addElement(src, "Designs", design, Module+"/designs/"+n.Design)
		}, func(src []byte) ([]byte, error) {
			return removeElement(src, "Designs", design, Module+"/designs/"+n.Design)
		}},
		{"scenarios/scenarios.go", scenario, func(src []byte) ([]byte, error) {
			return addElement(src, "All", scenario, "")
		}, func(src []byte) ([]byte, error) {
			return removeElement(src, "All", scenario, "")
		}},
	}
}

// addElement appends elem to the composite literal that initialises the
// package variable v, adds importPath to the file's imports (unless empty),
// and formats the result with go/format, which also sorts the import
// block. The edit is textual, at positions go/parser found, so every
// comment and blank line of the file stays where it was.
func addElement(src []byte, v, elem, importPath string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	lit := findLiteral(f, v)
	if lit == nil {
		return nil, fmt.Errorf("no `var %s = ...{...}` list to add %s to", v, elem)
	}
	for _, e := range lit.Elts {
		if string(src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset]) == elem {
			return nil, refuse("%s already lists %s", v, elem)
		}
	}
	type insert struct {
		at   int
		text string
	}
	var edits []insert
	rbrace := fset.Position(lit.Rbrace).Offset
	if lineStart := bytes.LastIndexByte(src[:rbrace], '\n') + 1; len(bytes.TrimSpace(src[lineStart:rbrace])) == 0 {
		edits = append(edits, insert{lineStart, "\t" + elem + ",\n"})
	} else if len(lit.Elts) > 0 && src[bytes.LastIndexFunc(src[:rbrace], notSpace)] != ',' {
		edits = append(edits, insert{rbrace, ", " + elem})
	} else {
		edits = append(edits, insert{rbrace, elem})
	}

	if importPath != "" {
		quoted := strconv.Quote(importPath)
		var block *ast.GenDecl
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				for _, s := range g.Specs {
					if s.(*ast.ImportSpec).Path.Value == quoted {
						return nil, refuse("already imports %s", importPath)
					}
				}
				block = g
			}
		}
		switch {
		case block == nil:
			end := fset.Position(f.Name.End()).Offset
			edits = append(edits, insert{end, "\n\nimport " + quoted + "\n"})
		case block.Rparen.IsValid():
			at := fset.Position(block.Rparen).Offset
			edits = append(edits, insert{bytes.LastIndexByte(src[:at], '\n') + 1, "\t" + quoted + "\n"})
		default: // import "x" on one line
			at := fset.Position(block.End()).Offset
			edits = append(edits, insert{at, "\nimport " + quoted})
		}
	}

	out := append([]byte(nil), src...)
	// Apply from the end of the file back, so earlier offsets stay true.
	for len(edits) > 0 {
		last := 0
		for i := range edits {
			if edits[i].at > edits[last].at {
				last = i
			}
		}
		e := edits[last]
		out = append(out[:e.at], append([]byte(e.text), out[e.at:]...)...)
		edits = append(edits[:last], edits[last+1:]...)
	}
	formatted, err := format.Source(out)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("the edited file does not parse"), err)
	}
	return formatted, nil
}

// removeElement takes elem out of the composite literal of the package
// variable v, and importPath out of the imports (unless empty): what
// addElement added, leaving every other line of the file as it is, so
// that an undo never drops what another writer added meanwhile. An
// element or import the file no longer has is no error: there is nothing
// to take back.
func removeElement(src []byte, v, elem, importPath string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var cuts [][2]int // byte ranges to delete, in any order
	if lit := findLiteral(f, v); lit != nil {
		for _, e := range lit.Elts {
			if string(src[off(e.Pos()):off(e.End())]) == elem {
				cuts = append(cuts, cutItem(src, off(e.Pos()), off(e.End()), ','))
			}
		}
	}
	if importPath != "" {
		quoted := strconv.Quote(importPath)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.IMPORT {
				continue
			}
			for _, s := range g.Specs {
				if s.(*ast.ImportSpec).Path.Value != quoted {
					continue
				}
				if g.Rparen.IsValid() {
					cuts = append(cuts, cutItem(src, off(s.Pos()), off(s.End()), ';'))
				} else {
					cuts = append(cuts, cutItem(src, off(g.Pos()), off(g.End()), ';'))
				}
			}
		}
	}
	out := append([]byte(nil), src...)
	slices.SortFunc(cuts, func(a, b [2]int) int { return b[0] - a[0] }) // from the end back
	for _, c := range cuts {
		out = append(out[:c[0]], out[c[1]:]...)
	}
	return format.Source(out)
}

// cutItem is the range to delete for the item at [from, to): its whole
// line when it stands alone on one, else the item with the separator sep
// and blanks after it (or, last in a list, the separator and blanks before
// it).
func cutItem(src []byte, from, to int, sep byte) [2]int {
	end := to
	if end < len(src) && src[end] == sep {
		end++
	}
	lineStart := bytes.LastIndexByte(src[:from], '\n') + 1
	lineEnd := len(src)
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		lineEnd = end + i + 1
	}
	if len(bytes.TrimSpace(src[lineStart:from])) == 0 && len(bytes.TrimSpace(src[end:lineEnd])) == 0 {
		return [2]int{lineStart, lineEnd}
	}
	if end > to { // "a, x, b": x and its comma
		for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
			end++
		}
		return [2]int{from, end}
	}
	start := from // "a, x}": the comma before x
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start > 0 && src[start-1] == sep {
		start--
	}
	return [2]int{start, to}
}

func notSpace(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && r != '\r' }

// findLiteral returns the composite literal of `var v = T{...}`.
func findLiteral(f *ast.File, v string) *ast.CompositeLit {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name == v && i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.CompositeLit); ok {
						return lit
					}
				}
			}
		}
	}
	return nil
}
