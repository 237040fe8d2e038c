package verify

import (
	"os"
	"path/filepath"
	"slices"
	"time"
)

// keepTimes records the modification times of the folders a run touches
// without changing what they list, and returns what sets them back. Ginkgo
// builds each suite's binary in the suite's folder and removes it, and a
// run keeps its scratch in reports/; both leave a folder listing what it
// listed, with a new time. go test's result cache hashes the time of every
// folder a test lists or stats (the docs' tests walk the tree, the
// workbench's read the designs), so without this their results would
// never be reused from one verify to the next. A folder whose listing did
// change keeps its new time.
func keepTimes(suites []testPackage) (restore func()) {
	dirs := []string{filepath.Dir(ReportDir)}
	for _, p := range suites {
		dirs = append(dirs, p.Dir)
	}
	type kept struct {
		mtime   time.Time
		entries []string
	}
	was := map[string]kept{}
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			continue
		}
		was[d] = kept{fi.ModTime(), names(d)}
	}
	return func() {
		for d, k := range was {
			if slices.Equal(names(d), k.entries) {
				_ = os.Chtimes(d, time.Time{}, k.mtime) // a zero atime is left as it is
			}
		}
	}
}

// names lists a folder's entries, nil when it cannot be read.
func names(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name()
	}
	return out
}
