// Package scaffold writes the starting point of a new design: its package
// under designs/ (README to fill in, schema, catalog, a create and a get
// pattern, a Ginkgo suite and its specs), its fixtures generator and its
// default bench scenario, and wires it into designs/all and scenarios.All.
// The output passes gofmt and go vet and its specs pass at once, so the
// engineer starts from green and changes one thing at a time.
//
// Its templates are the one template set a design package is written
// from: import-model (internal/workbench) renders the files every design
// has from them too, with its own data (Package), and writes what only it
// has through the same Source, so the two generators cannot drift apart.
//
// A scaffold either writes everything or nothing: every name is checked and
// every file rendered and formatted in memory before the first write, and a
// write that fails midway is rolled back.
package scaffold
