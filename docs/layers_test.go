package docs

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

const module = "github.com/ddbharness/ddbharness/"

// floors reads architecture.md's layer table: each package (or pattern
// ending in /<name>) and its floor, 0 at the top.
func floors(t *testing.T) (map[string]int, []string) {
	t.Helper()
	b, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "| Layer | Packages |")
	if !ok {
		t.Fatal("architecture.md has no layer table")
	}
	pkg := regexp.MustCompile("`([^`]+)`")
	out := map[string]int{}
	var names []string
	for _, line := range strings.Split(table, "\n")[2:] {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			break
		}
		for _, m := range pkg.FindAllStringSubmatch(cells[2], -1) {
			out[m[1]] = len(names)
		}
		names = append(names, strings.TrimSpace(cells[1]))
	}
	return out, names
}

// floorOf finds p's floor; designs/<name> stands for every design.
func floorOf(f map[string]int, p string) (int, bool) {
	if n, ok := f[p]; ok {
		return n, true
	}
	if strings.HasPrefix(p, "designs/") {
		n, ok := f["designs/<name>"]
		return n, ok
	}
	return 0, false
}

// TestNoPackageImportsAFloorAbove holds architecture.md's layer table
// true: every package of the module is on a floor, and none imports a
// package on a floor above its own.
func TestNoPackageImportsAFloorAbove(t *testing.T) {
	f, names := floors(t)
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{len .GoFiles}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	s := bufio.NewScanner(strings.NewReader(string(out)))
	for s.Scan() {
		fields := strings.Fields(s.Text())
		p := strings.TrimPrefix(fields[0], module)
		if fields[1] == "0" {
			continue // tests only
		}
		from, ok := floorOf(f, p)
		if !ok {
			t.Errorf("%s is on no floor of architecture.md's layer table: add it to the floor it belongs to", p)
			continue
		}
		for _, imp := range fields[2:] {
			q, ours := strings.CutPrefix(imp, module)
			if !ours {
				continue
			}
			if to, ok := floorOf(f, q); ok && to < from {
				t.Errorf("%s (%s) imports %s (%s), a floor above it", p, names[from], q, names[to])
			}
		}
	}
}

// TestLintImportsNothingUnderBench keeps the design lint off the
// measurement packages: what it needs of DynamoDB's rules (the pricing of
// a call, items, quotas) lives below them, so no package under bench/ is
// among its dependencies, however indirect.
func TestLintImportsNothingUnderBench(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./internal/lint")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if q, ours := strings.CutPrefix(p, module); ours && (q == "bench" || strings.HasPrefix(q, "bench/")) {
			t.Errorf("internal/lint depends on %s: move the rule it needs out of bench/ (as pricing was)", q)
		}
	}
}
