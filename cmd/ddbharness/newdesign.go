package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// newDesign scaffolds a design in the current folder, which must be the
// repository root: the generated imports and the two registry files are
// found from there. It prints what it wrote and the commands that take the
// new design from green specs to a bench report.
func newDesign(ctx context.Context, fs *flag.FlagSet, args []string) error {
	entity := fs.String("entity", scaffold.DefaultEntity, "the example entity, lower case (book becomes type Book)")
	key := fs.String("key", scaffold.DefaultKey, "the attribute identifying the entity, lower case (isbn becomes field Isbn, given by the caller); "+
		scaffold.DefaultKey+": a generated KSUID")
	group := fs.String("group", scaffold.DefaultGroup, "the attribute GSI1 groups the entity by, lower case (shelf becomes field Shelf); "+
		fmt.Sprintf("2 to %d separated by commas (tenant,region) make GSI1 a multi-attribute GSI keyed by the entity's own Tenant and Region; ", designs.MaxKeyAttributes)+
		scaffold.NoGroup+": no GSI1")
	name, root, err := writerArgs(fs, args, "design name")
	if err != nil {
		return err
	}
	p, err := scaffold.Scaffold(ctx, root, scaffold.Names{Design: name, Entity: *entity, Key: *key, Group: *group}, os.Stderr)
	if err != nil {
		return notWritten("new-design", err)
	}
	fmt.Printf("new-design: wrote design %s\n", name)
	printPlan(p)
	fmt.Printf(`next:
  go tool ginkgo -p ./designs/%[1]s          # its specs, on DynamoDB Local
  make verify DESIGN=%[1]s                   # its suite, its scenario's specs, its lint and coverage gate
  make bench SCENARIO=%[1]s DURATION=5s      # a bench report for it
then restate the design doc in designs/%[1]s/README.md and add its patterns
(docs/add-a-design.md); make verify runs every design before you push.
`, name)
	return nil
}

// printPlan lists the files a generator created and those it changed, with
// what it wired into each.
func printPlan(p scaffold.Plan) {
	created, changed := p.Paths()
	for _, f := range created {
		fmt.Println("  created", f)
	}
	for i, f := range changed {
		fmt.Printf("  changed %s (+ %s)\n", f, p.Wired[i])
	}
}

// notWritten reports a generator that wrote nothing: input it refused (a
// taken or invalid name, a model it cannot read) is bad input, exit 2.
func notWritten(what string, err error) error {
	if errors.Is(err, scaffold.ErrRefused) || errors.Is(err, modelfile.ErrBadModel) {
		// A model's names in the message reach the terminal Printable.
		return badInputf("%s: %s (nothing was written)", what, scaffold.Printable(err.Error()))
	}
	return fmt.Errorf("%s: %w (nothing was written)", what, err)
}
