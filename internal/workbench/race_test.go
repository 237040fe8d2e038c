package workbench_test

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ddbharness/ddbharness/internal/scaffold"
	"github.com/ddbharness/ddbharness/internal/workbench"
)

// errVetFailed stands in for a go vet that fails on what an import wrote.
var errVetFailed = errors.New("vet failed")

// Imports running at once into one repository, some of them failing their
// check and taking themselves back, leave registries that list exactly the
// designs on disk: no registration lost, none naming a missing package.
// Each round runs six imports together; the check reads the registries
// as go vet would see them, so a writer that let another's half-done
// state through fails there too.
func TestImportsAtOnceKeepEveryRegistration(t *testing.T) {
	t.Parallel()
	model := writeModel(t, gallery(t))
	for round := range 3 {
		root := repo(t)
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("race%d", i)
				check := func(_ context.Context, done []workbench.Imported) error {
					if err := registryMatchesTree(root); err != nil {
						return err
					}
					if i%3 == 0 {
						return errVetFailed // every third import is taken back
					}
					return nil
				}
				_, errs[i] = workbench.Importer{Root: root, Check: check}.Import(context.Background(), model, name)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			want := error(nil)
			if i%3 == 0 {
				want = errVetFailed
			}
			if !errors.Is(err, want) && !(want == nil && err == nil) {
				t.Errorf("round %d: import race%d: %v, want %v", round, i, err, want)
			}
			_, statErr := os.Stat(filepath.Join(root, "designs", fmt.Sprintf("race%d", i)))
			if (statErr == nil) != (want == nil) {
				t.Errorf("round %d: designs/race%d on disk: %v, want it there only if its import passed", round, i, statErr == nil)
			}
		}
		if err := registryMatchesTree(root); err != nil {
			t.Errorf("round %d, after every import: %v", round, err)
		}
	}
}

// registryMatchesTree says where designs/all/all.go and
// scenarios/scenarios.go disagree with the race designs' folders under
// root (the test's; the others are not copied): a
// folder no registry lists, or an entry whose package is not there.
func registryMatchesTree(root string) error {
	fset := token.NewFileSet()
	all, err := parser.ParseFile(fset, filepath.Join(root, "designs/all/all.go"), nil, parser.ImportsOnly)
	if err != nil {
		return err
	}
	var imported []string
	for _, im := range all.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if name, ok := strings.CutPrefix(p, scaffold.Module+"/designs/race"); ok {
			name = "race" + name
			imported = append(imported, name)
		}
	}
	scenarios, err := os.ReadFile(filepath.Join(root, "scenarios/scenarios.go"))
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(filepath.Join(root, "designs"))
	if err != nil {
		return err
	}
	var onDisk []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "all" && !strings.HasPrefix(e.Name(), ".") {
			onDisk = append(onDisk, e.Name())
		}
	}
	for _, name := range onDisk {
		if strings.HasPrefix(name, "race") && !slices.Contains(imported, name) {
			return fmt.Errorf("designs/%s is on disk, but designs/all/all.go does not import it", name)
		}
	}
	for _, m := range regexp.MustCompile(`Race(\d+)Steady`).FindAllStringSubmatch(string(scenarios), -1) {
		if !slices.Contains(onDisk, "race"+m[1]) {
			return fmt.Errorf("scenarios/scenarios.go lists %s, but designs/race%s is not on disk", m[0], m[1])
		}
	}
	for _, name := range imported {
		if !slices.Contains(onDisk, name) {
			return fmt.Errorf("designs/all/all.go imports designs/%s, which is not on disk", name)
		}
		steady := strings.ToUpper(name[:1]) + name[1:] + "Steady"
		if !strings.Contains(string(scenarios), steady) {
			return fmt.Errorf("scenarios/scenarios.go does not list %s of designs/%s", steady, name)
		}
	}
	return nil
}
