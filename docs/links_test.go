// Package docs holds the project's documentation pages; its tests check
// that every link between them, and every anchor, leads somewhere, and
// that the paths and test names they spell in backticks exist.
package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// pages are the documents a reader moves between, from this folder.
var pages = []string{"../README.md", "../CONTRIBUTING.md", "*.md"}

var (
	// An inline link, with or without a title, or a reference definition.
	link    = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)|(?m)^ {0,3}\[[^\]]+\]:\s*(\S+)`)
	heading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*$`)
	fence   = regexp.MustCompile("(?ms)^```.*?^```")
)

// anchors lists a page's heading anchors as GitHub makes them: lower case,
// punctuation dropped, spaces as hyphens, a repeat numbered -1, -2...
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

func TestLinksLeadSomewhere(t *testing.T) {
	var files []string
	for _, p := range pages {
		m, err := filepath.Glob(p)
		if err != nil || len(m) == 0 {
			t.Fatalf("no page matches %s", p)
		}
		files = append(files, m...)
	}
	texts := map[string]string{}
	read := func(path string) (string, bool) {
		path = filepath.Clean(path) // one page, one read, however a link spells it
		if s, ok := texts[path]; ok {
			return s, true
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return "", false
		}
		texts[path] = string(b)
		return string(b), true
	}
	checked := 0
	for _, f := range files {
		text, _ := read(f)
		for _, m := range link.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
			target := m[1] + m[2]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), path)
			}
			destText, ok := read(dest)
			if !ok {
				if fi, err := os.Stat(dest); err == nil && fi.IsDir() && anchor == "" {
					continue // a folder
				}
				t.Errorf("%s: link %q: %s does not exist", f, target, dest)
				continue
			}
			checked++
			if anchor != "" && strings.HasSuffix(dest, ".md") && !anchors(destText)[anchor] {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", f, target, dest, anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no link checked: the pattern finds none")
	}
}

func TestAnchorsAsGitHubMakesThem(t *testing.T) {
	got := anchors("# What `make verify` does\n## Throttling, emulated\n## Throttling, emulated\n```\n# not a heading\n```\n")
	for _, want := range []string{"what-make-verify-does", "throttling-emulated", "throttling-emulated-1"} {
		if !got[want] {
			t.Errorf("anchors lack %q: %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block was read as a heading")
	}
}
