package scaffold

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"text/template"
)

// Code is Go source a generator built for a template to print as it is:
// each value from input in it is already quoted (strconv.Quote).
type Code string

// StringSlice is xs as a Go []string literal, each element quoted.
func StringSlice(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// set is the one template set every design package is written from: both
// generators render their files, and the sections they share, from it.
// Parsed together, any template may use another's defines.
var set = template.Must(template.New("design").Delims("[[", "]]").Option("missingkey=error").Funcs(template.FuncMap{
	"q":    strconv.Quote, // any value from input in Go source: a string literal, or quoted in a comment
	"line": Printable,
	"cell": func(s string) string { return mdPipe.Replace(Printable(s)) },
}).ParseFS(templates, "templates/*.tmpl"))

// A README's text from input is Printable, so a name spelt with a line
// break or a terminal escape keeps its lines and table rows whole and
// shows what it holds; a table cell also escapes its pipes.
var mdPipe = strings.NewReplacer("|", `\|`)

// Source is one generated file as it is written: sections from the
// template set and lines of code a generator computes, in order. File
// formats it once whole, so the two read as one file.
type Source struct {
	buf bytes.Buffer
	err error
}

// Section appends the template name of the set, executed on data.
func (s *Source) Section(name string, data any) {
	if s.err == nil {
		s.err = set.ExecuteTemplate(&s.buf, name, data)
	}
}

// Code appends one or more lines of code, as fmt.Sprintf formats them.
func (s *Source) Code(format string, args ...any) {
	fmt.Fprintf(&s.buf, format+"\n", args...)
}

// File is the source as the file at path: Go formatted (Format), any
// other file as written.
func (s *Source) File(path string) (File, error) {
	if s.err != nil {
		return File{}, fmt.Errorf("render %s: %w", path, s.err)
	}
	if !strings.HasSuffix(path, ".go") {
		return File{path, bytes.Clone(s.buf.Bytes())}, nil
	}
	out, err := Format(s.buf.Bytes())
	if err != nil {
		return File{}, fmt.Errorf("generated %s does not parse: %w\n%s", path, err, s.buf.Bytes())
	}
	return File{path, out}, nil
}

// Render is the file at path made of the one template name of the set.
func Render(name string, data any, path string) (File, error) {
	var s Source
	s.Section(name, data)
	return s.File(path)
}
