package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/designs/all"
	"github.com/ddbharness/ddbharness/internal/lint"
	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/userfile"
	"github.com/ddbharness/ddbharness/internal/workbench"
	"github.com/ddbharness/ddbharness/internal/workbench/modelfile"
)

// importModel turns a NoSQL Workbench model into design packages in the
// repository at the current folder; a bad model or a taken name is bad
// input (exit 2) and writes nothing.
func importModel(ctx context.Context, fs *flag.FlagSet, args []string) error {
	name := fs.String("name", "", "the design's name (default: the model's name, lower case); a model of several tables gets one design per table, this name plus the table's")
	strict := fs.Bool("strict", false, "refuse a model with an access pattern the import cannot generate, instead of leaving it in the catalog uncovered")
	file, root, err := writerArgs(fs, args, "model file")
	if err != nil {
		return err
	}
	done, err := workbench.Importer{Root: root, Log: os.Stderr, Strict: *strict, Check: func(ctx context.Context, done []workbench.Imported) error { return vetImported(ctx, root, done) }}.Import(ctx, file, *name)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "import-model: interrupted: the repository is as it was")
		return errInterrupted
	}
	if err != nil {
		return notWritten("import-model", err)
	}
	for _, im := range done {
		d := im.Design
		fmt.Printf("import-model: wrote design %s from table %s: %d entities, %d patterns\n", d.Name, scaffold.Printable(d.Table.TableName), len(d.Entities), len(d.Patterns))
		printPlan(im.Plan)
		for _, n := range d.Notes {
			fmt.Println("  note:", scaffold.Printable(n))
		}
		fmt.Printf(`next:
  make verify DESIGN=%[1]s                  # its specs: the model's sample data, proven on DynamoDB Local
  make lint DESIGN=%[1]s                    # its keys and items against DynamoDB's limits
  make bench SCENARIO=%[1]s DURATION=5s     # a bench report for it
`, d.Name)
	}
	return nil
}

// vetTimeout bounds the check that generated code compiles: a cold build
// of the SDK on two cores takes a few minutes.
const vetTimeout = 10 * time.Minute

// vetImported runs go vet on what an import would write, before it is
// written (an overlay: scaffold.NewOverlay), so that generated code that
// does not compile (a bug of the generator) is never written, and an
// import killed during the check leaves no design registered.
func vetImported(ctx context.Context, root string, done []workbench.Imported) error {
	pkgs := []string{"./fixtures", "./scenarios", "./designs/all"}
	var plans []scaffold.Plan
	for _, im := range done {
		pkgs = append(pkgs, "./designs/"+im.Design.Name)
		if im.Plan.Root != "" {
			plans = append(plans, im.Plan)
		}
	}
	overlay, err := scaffold.NewOverlay(plans...)
	if err != nil {
		return fmt.Errorf("stage the generated code for go vet: %w", err)
	}
	defer overlay.Close()
	fmt.Fprintf(os.Stderr, "import-model: checking that the generated code compiles, before it is written (go vet -trimpath %s)\n", strings.Join(pkgs, " "))
	vetCtx, cancel := context.WithTimeout(ctx, vetTimeout)
	defer cancel()
	// -trimpath, as make builds: the packages this import did not touch
	// are then found in the build cache make's own builds filled.
	args := append([]string{"vet", "-trimpath", "-overlay", overlay.File}, pkgs...)
	cmd := exec.CommandContext(vetCtx, "go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		switch {
		case ctx.Err() != nil:
			return ctx.Err() // stopped, not failed: the code was not judged
		case vetCtx.Err() != nil:
			return fmt.Errorf("go vet did not finish within %v, so nothing is written: run it again on a less busy machine (a cold build cache takes longest)", vetTimeout)
		}
		return fmt.Errorf("the generated code does not pass go vet (%v), so nothing is written; this is a bug of import-model: please report it with the model:\n%s", err, out)
	}
	return nil
}

// exportPool is how many entities export-model seeds to pick its sample
// items from: enough for every entity type of a design's default scenario.
const exportPool = 200

// exportModel writes a design as a NoSQL Workbench model: to stdout, or
// to -out. Its sample items are the design's fixtures, seeded in memory.
func exportModel(ctx context.Context, fs *flag.FlagSet, args []string) error {
	out := fs.String("out", "", "the file to write (default: standard output)")
	format := fs.String("format", "workbench", "workbench: a NoSQL Workbench model; mcp: the DynamoDB MCP server's dynamodb_data_model.json, with the catalog as access patterns")
	name, err := oneArg(fs, args, "design")
	if err != nil {
		return err
	}
	d, ok := all.Find(name)
	if !ok {
		return badInputf("export-model: no design %q (designs: %s)", name, strings.Join(all.Names(all.Designs), ", "))
	}
	if *format != "workbench" && *format != "mcp" {
		return badInputf("export-model: -format %q: want workbench or mcp", *format)
	}
	items, err := lint.Fixtures(ctx, d, exportPool)
	if err != nil {
		return err
	}
	var data []byte
	if *format == "mcp" {
		data, err = modelfile.ExportMCP(d, items).MarshalIndent()
	} else {
		var m modelfile.ModelFile
		if m, err = modelfile.Export(d, items, time.Now()); errors.Is(err, modelfile.ErrNoWorkbenchKey) {
			return badInputf("export-model: %v", err)
		} else if err == nil {
			data, err = json.MarshalIndent(m, "", "  ")
		}
	}
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if *out == "" {
		_, err = os.Stdout.Write(data)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return badInputf("export-model: %v: give -out a file in a folder you can write", err)
	}
	// Written beside -out and renamed over it: a failed write leaves the
	// previous model whole.
	switch err := userfile.Write(*out, data, 0o644); {
	case errors.Is(err, userfile.ErrNotRegular):
		return badInputf("export-model: %v: give -out a regular file, or leave -out out to write to standard output", err)
	case err != nil:
		return badInputf("export-model: %v: give -out a file in a folder you can write, on a disk with room (a file there already is left as it was)", err)
	}
	if *format == "mcp" {
		fmt.Fprintf(os.Stderr, "export-model: wrote %s (%d bytes): give it to the DynamoDB MCP server's tools, or import-model it again\n", *out, len(data))
		return nil
	}
	fmt.Fprintf(os.Stderr, "export-model: wrote %s (%d bytes): open it in NoSQL Workbench (Import data model)\n", *out, len(data))
	return nil
}
