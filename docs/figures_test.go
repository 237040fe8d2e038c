package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// measuredHere is the one page that states what was measured on our
// machine; the others link to its rows, so a figure goes stale in one place.
const measuredHere = "performance.md"

var (
	// A duration or a rate: 2.3 s, 48.7–50.9 s, 2 min, 581 ms, 71.9 requests/s.
	timeOrRate = regexp.MustCompile(`(?i)\b\d[\d,.]*(?:\s?[–-]\s?\d[\d,.]*)?\s?(?:ms|µs|us|ns|s|min|minutes?|seconds?|calls/s|requests/s|calls a second|requests a second)\b`)
	// What makes such a figure a measurement on our machine.
	measuring = regexp.MustCompile(`(?i)\btook\b|\bmeasured (?:here|on (?:our|the 2-core|a |20\d\d))|\bmedians?\b|\bload \d|\bquiet\b|\bloaded\b|\bwarm (?:build )?(?:caches?|here)\b|\d\s?s wall\b|\bin (?:\d+|two|three|four|five|six|seven|eight|nine|ten) runs\b|\bour (?:2-core machine|machine|two cores|2 cores)\b|\bthe 2-core machine\b`)
	// A date beside a run or a measurement: "measured 2026-11-27", "one run (2026-11-29)".
	datedRun = regexp.MustCompile(`(?i)\b20\d\d-\d\d-\d\d\b(?:[^T]|$)`)
	runWords = regexp.MustCompile(`(?i)\bmeasured\b|\bruns?\b|\bran\b`)
	// What before a figure makes it a bound or a setting, not a measurement.
	bound      = regexp.MustCompile(`(?i)(?:budget (?:is|of)|≤|under|within|at most|=|\ba|usual)\s?$`)
	boundAfter = regexp.MustCompile(`(?i)^\)?,?\s(?:at most|at the latest)\b`)
)

// statesAMeasurement reports whether a sentence gives a figure measured on
// our machine: a duration or rate beside a word of measuring, or a date
// beside a run. A table row's cells are read apart, and a sentence or cell
// that links to a source (a public measurement) is skipped.
func statesAMeasurement(sentence string) bool {
	return figureAt(sentence) >= 0
}

// figureAt is where the measured figure starts in the sentence, -1 if none.
func figureAt(sentence string) int {
	parts := []string{sentence}
	if strings.HasPrefix(strings.TrimSpace(sentence), "|") {
		parts = strings.Split(sentence, "|")
	}
	at := 0
	for _, p := range parts {
		base := at
		at += len(p) + 1
		if strings.Contains(p, "http") {
			continue
		}
		if d := datedRun.FindStringIndex(p); d != nil && runWords.MatchString(p) {
			return base + d[0]
		}
		if !measuring.MatchString(p) {
			continue
		}
		for _, m := range timeOrRate.FindAllStringIndex(p, -1) {
			if !bound.MatchString(p[:m[0]]) && !boundAfter.MatchString(p[m[1]:]) {
				return base + m[0]
			}
		}
	}
	return -1
}

// sentenceEnd ends a sentence: a stop before a space or a line's end.
var sentenceEnd = regexp.MustCompile(`[.!?]["')]*(?:\s|$)`)

// measuredLines lists the lines (from 1) of a page's text where a sentence
// outside code blocks states a figure measured on our machine. A sentence
// may run over lines; a blank line, a fence, a table row, a heading or a
// list item starts a new one.
func measuredLines(text string) []int {
	var found []int
	lines := strings.Split(text, "\n")
	var block []string
	first := 0 // the block's first line, from 0
	flush := func() {
		joined := strings.Join(block, " ")
		start := 0
		for _, e := range append(sentenceEnd.FindAllStringIndex(joined, -1), []int{len(joined), len(joined)}) {
			if e[1] <= start {
				continue
			}
			if at := figureAt(joined[start:e[1]]); at >= 0 {
				// the line holding the figure: count the joins before it
				found = append(found, first+strings.Count(strings.Join(block, "\n")[:start+at], "\n")+1)
			}
			start = e[1]
		}
		block = nil
	}
	inFence := false
	for i, line := range lines {
		t := strings.TrimSpace(line)
		fenceLine := strings.HasPrefix(t, "```")
		if fenceLine {
			inFence = !inFence
		}
		newUnit := fenceLine || inFence || t == "" || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#") || listItem.MatchString(t)
		if newUnit {
			flush()
		}
		if fenceLine || inFence || t == "" {
			continue
		}
		if len(block) == 0 {
			first = i
		}
		block = append(block, line)
		if strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#") {
			flush()
		}
	}
	flush()
	return found
}

var listItem = regexp.MustCompile(`^(?:[-*+]|\d+\.)\s`)

// TestMeasuredFiguresLiveInPerformance fails on a page other than
// performance.md that states a figure measured here: such a figure goes
// stale in every page that repeats it.
func TestMeasuredFiguresLiveInPerformance(t *testing.T) {
	checked := 0
	// The designs' own pages too: a design's figures are its own, but a
	// timing taken here is not.
	for _, p := range append(pages[:len(pages):len(pages)], "../designs/*/README.md") {
		files, _ := filepath.Glob(p)
		for _, f := range files {
			if filepath.Base(f) == measuredHere {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			lines := strings.Split(string(b), "\n")
			for _, n := range measuredLines(string(b)) {
				t.Errorf("%s:%d: a figure measured on our machine: move it to docs/performance.md and link to it\n\t%s", f, n, strings.TrimSpace(lines[n-1]))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no page read")
	}
}

func TestStatesAMeasurement(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"a scaffolded design's first run took 2 min 51 s, 80 s of", true},
		{"Measured on our 2-core machine: `time make verify` takes 47–53 s wall", true},
		{"quiet (load 2.5) and beside other builds, 1066.6 requests/s", true},
		{"which builds and runs that design's suite alone (8 s warm here):", true},
		{"| first limit | before: **wrong** (40.9 requests/s at load 14) | `TestX` |", true},
		{"`SCENARIO=ticketing/on-sale DURATION=10s` (2026-11-29, one run)", true},
		{"the median of three runs, 50.2 s", true},
		// A bound, a setting or a source's figure is not a measurement here.
		{"Its budget is 45 s with warm caches on a 2-core machine", false},
		{"2. warms up for 3 s, unmeasured;", false},
		{"a call ends (3 minutes at most), however loaded the machine", false},
		{"`make bench SCENARIO=shop/browse DURATION=5s` on a quiet machine is under 20 s", false},
		{"25.3 ms, [measured on the service](https://github.com/alexdebrie/x), took 7.55 ms", false},
		{"the first limit is the same on a quiet and a loaded machine.", false},
		{"| Agency | `Agency` | `2026-01-01T00:00:01.000000000Z` |", false},
		{"a partition serves 1,000 WCU/s, twice that in a quiet second's bucket", false},
	} {
		if got := statesAMeasurement(c.line); got != c.want {
			t.Errorf("statesAMeasurement(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestMeasuredLinesReadSentencesOverLines(t *testing.T) {
	text := strings.Join([]string{
		"# A page", // 1
		"",         // 2
		"Measured on our 2-core machine, with the",    // 3
		"caches in place: `time make verify` takes",   // 4
		"47–53 s wall. A budget of 45 s is a target.", // 5
		"",                                       // 6
		"```sh",                                  // 7
		"time make verify   # real 0m50s, quiet", // 8
		"```",                                    // 9
		"- a list item on a quiet machine",       // 10
		"- another with a 30 s run, no measurement",   // 11
		"| cell | a 2 s bound | our machine |",        // 12
		"It ran on 2026-11-29 and",                    // 13
		"printed nothing.",                            // 14
		"See [measured](performance.md#x): 10.5 s.",   // 15
		"A row of `2026-01-01T00:00:01Z` in one run.", // 16
		"The drain, 3 minutes at most, on a loaded",   // 17
		"machine.", // 18
	}, "\n")
	got := measuredLines(text)
	want := []int{5, 13}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("measuredLines = %v, want %v", got, want)
	}
}
