package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/internal/userfile"
)

// The files of a run's folder, and the pointers to the newest run.
const (
	SummaryFile = "summary.md"
	MetricsFile = "metrics.json"
	ResultsFile = "results.bin"
	PlotFile    = "plot.html"
	HeatFile    = "heat.svg"
	// ThresholdsFile is the thresholds as JUnit XML, for CI; written when
	// the run had any.
	ThresholdsFile = "thresholds.xml"
	// LatestLink is a symbolic link to the newest run's folder; LatestFile
	// holds its name, for file systems without links.
	LatestLink = "latest"
	LatestFile = "LATEST"
)

// writers makes each file of a run's folder.
var writers = []struct {
	name  string
	write func(io.Writer, bench.Outcome) error
}{
	{SummaryFile, WriteSummary},
	{MetricsFile, WriteMetrics},
	{ResultsFile, WriteResults},
	{PlotFile, WritePlot},
	{HeatFile, WriteHeat},
}

// Write writes the report of out into a new folder under root (NewFolder)
// and returns its path, as WriteTo does.
func Write(root string, out bench.Outcome) (string, error) {
	dir, err := NewFolder(root, out)
	if err != nil {
		return "", err
	}
	return dir, WriteTo(dir, out)
}

// NewFolder makes the folder of a run under root, named <UTC
// start>-<design>-<scenario> (out.Started, or now when measuring has not
// begun), before the run, so that its calls go to the folder's
// results.bin as they end (engine.ResultsTo).
func NewFolder(root string, out bench.Outcome) (string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("report: %w (pick a writable folder with --out)", err)
	}
	dir, err := makeRunDir(root, runName(out))
	if err != nil {
		return "", fmt.Errorf("report: %w (pick a writable folder with --out)", err)
	}
	return dir, nil
}

// WriteTo writes the report of out into dir, a folder NewFolder made, and
// points its root's latest pointers at it. results.bin is out's results
// file, copied unless the run wrote it there already. Each file is
// written on its own: one that fails costs only itself, the others and
// the pointers are still written, and the error names every file that
// failed.
func WriteTo(dir string, out bench.Outcome) error {
	var errs []error
	all := writers
	if isShard(out) {
		all = append(all[:len(all):len(all)], struct {
			name  string
			write func(io.Writer, bench.Outcome) error
		}{ShardFile, WriteShard})
	}
	if len(out.Thresholds) > 0 {
		all = append(all[:len(all):len(all)], struct {
			name  string
			write func(io.Writer, bench.Outcome) error
		}{ThresholdsFile, WriteThresholds})
	}
	for _, w := range all {
		path := filepath.Join(dir, w.name)
		if w.name == ResultsFile && sameFile(path, out.ResultsFile) {
			continue
		}
		if err := writeFile(path, out, w.write); err != nil {
			errs = append(errs, fmt.Errorf("report %s: %w", path, err))
		}
	}
	if out.ResultsErr != nil {
		errs = append(errs, fmt.Errorf("report %s: %w", filepath.Join(dir, ResultsFile), out.ResultsErr))
	}
	var kept *keptLatest
	switch err := pointLatest(filepath.Dir(dir), filepath.Base(dir)); {
	case errors.As(err, &kept):
		// The report is whole; only the convenience link stayed.
		fmt.Fprintln(os.Stderr, "report: warning:", err)
	case err != nil:
		errs = append(errs, fmt.Errorf("report: %w", err))
	}
	return errors.Join(errs...)
}

// sameFile reports whether paths a and b name one existing file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// runName is <UTC start>-<design>-<scenario>, then the run's name and the
// shard (-nightly-shard2of4) or -merged, in characters every file system
// takes.
func runName(out bench.Outcome) string {
	at := out.Started
	if at.IsZero() {
		at = time.Now()
	}
	scenario := out.Scenario
	if i := strings.LastIndex(scenario, "/"); i >= 0 {
		scenario = scenario[i+1:]
	}
	name := at.UTC().Format("20060102T150405Z") + "-" + safe(out.Design) + "-" + safe(scenario)
	switch {
	case len(out.Merged) > 0:
		name += "-" + safe(out.Shard.Run) + "-merged"
	case isShard(out):
		name += fmt.Sprintf("-%s-shard%dof%d", safe(out.Shard.Run), out.Shard.I, out.Shard.N)
	}
	return name
}

func safe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
}

// makeRunDir creates root/name, or root/name-2 and so on when a run of the
// same second took it already.
func makeRunDir(root, name string) (string, error) {
	for i := 1; ; i++ {
		dir := filepath.Join(root, name)
		if i > 1 {
			dir = fmt.Sprintf("%s-%d", dir, i)
		}
		err := os.Mkdir(dir, 0o755)
		if !errors.Is(err, os.ErrExist) {
			return dir, err
		}
	}
}

// writeFile writes one file of the report, beside it first and renamed
// into place when whole (userfile.Create): a file that fails is not left
// half written. A writer that panics on figures it did not expect fails
// its own file only.
func writeFile(path string, out bench.Outcome, write func(io.Writer, bench.Outcome) error) (err error) {
	f, err := userfile.Create(path, 0o644)
	if err != nil {
		return err
	}
	defer f.Abort()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("could not be written: %v", r)
		}
	}()
	w := bufio.NewWriter(f)
	if err := write(w, out); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// pointLatest points root/latest and root/LATEST at the run folder name,
// each replaced in one rename so that a reader never sees neither. The
// link is best effort: some file systems have none.
func pointLatest(root, name string) error {
	if err := userfile.Write(filepath.Join(root, LatestFile), []byte(name+"\n"), 0o644); err != nil {
		return err
	}
	link := filepath.Join(root, "."+LatestLink+".tmp")
	_ = os.Remove(link)
	if os.Symlink(name, link) != nil {
		return nil
	}
	latest := filepath.Join(root, LatestLink)
	if err := os.Rename(link, latest); err != nil {
		_ = os.Remove(link)
		if fi, serr := os.Lstat(latest); serr == nil && fi.Mode()&os.ModeSymlink == 0 {
			return &keptLatest{latest, fi.IsDir(), filepath.Join(root, LatestFile)}
		}
		return err
	}
	return nil
}

// keptLatest is a latest that is not the link this command keeps (a
// folder or a file someone put there): left as it is.
type keptLatest struct {
	path   string
	folder bool
	names  string // the file that names the run instead
}

func (k *keptLatest) Error() string {
	what := "file"
	if k.folder {
		what = "folder"
	}
	return fmt.Sprintf("%s is a %s, not the link this command keeps, so it was left as it is (%s names the run): move it away to have the link again", k.path, what, k.names)
}

// Latest returns the folder of the newest run under root.
func Latest(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, LatestFile))
	if err != nil {
		return "", fmt.Errorf("report: no run under %s yet: %w", root, err)
	}
	return filepath.Join(root, strings.TrimSpace(string(b))), nil
}
