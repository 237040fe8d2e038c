package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	code = regexp.MustCompile("`([^`\n]+)`")
	// A test's name as Go's tooling spells it.
	testName = regexp.MustCompile(`^(Test|Benchmark|Example|Fuzz)[A-Z]\w*$`)
	// A repository path: it starts at one of the repository's top folders.
	repoPath = regexp.MustCompile(`^(bench|cmd|ddbitem|deploy|designs|docs|internal|scenarios|reports|tools|\.ci)/[\w./*-]*$`)
)

// madeByThePages are paths the pages' own commands make: the walkthrough's
// example design and a run's reports.
var madeByThePages = []string{"designs/library/", "scenarios/library.go", "reports/"}

// TestNamesInCodeSpansExist checks that what the pages name in backticks
// as a repository path, or as a test, benchmark, example or fuzz target,
// is in the repository: a renamed file or test leaves no stale name behind.
func TestNamesInCodeSpansExist(t *testing.T) {
	funcs := testFuncs(t)
	var files []string
	for _, p := range pages {
		m, _ := filepath.Glob(p)
		files = append(files, m...)
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range code.FindAllStringSubmatch(string(b), -1) {
			span := m[1]
			switch {
			case testName.MatchString(span):
				checked++
				if !funcs[span] {
					t.Errorf("%s: `%s` names no test function in the repository", f, span)
				}
			case repoPath.MatchString(span) && !made(span):
				checked++
				path := strings.TrimRight(span, "/")
				if strings.ContainsAny(path, "*") {
					if m, _ := filepath.Glob(filepath.Join("..", path)); len(m) == 0 {
						t.Errorf("%s: `%s` matches no file in the repository", f, span)
					}
					continue
				}
				if _, err := os.Stat(filepath.Join("..", path)); err != nil {
					t.Errorf("%s: `%s` is no file or folder in the repository", f, span)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no name checked: the patterns find none")
	}
}

// testFuncs lists the test, benchmark, example and fuzz functions of every
// _test.go file of the repository.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Example|Fuzz)\w*)\(`)
	out := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "reports" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func made(path string) bool {
	for _, p := range madeByThePages {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}
