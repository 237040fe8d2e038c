package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ddbharness/ddbharness/internal/userfile"
)

// scratchDir makes this run's folder beside ReportDir, first removing the
// folders of runs that died without removing theirs (kill -9).
func scratchDir() (string, error) {
	parent := filepath.Dir(ReportDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("verify: %w (reports must be writable)", err)
	}
	old, _ := filepath.Glob(filepath.Join(parent, ".verify-*-*"))
	for _, d := range old {
		pid, err := strconv.Atoi(strings.Split(filepath.Base(d), "-")[1])
		if err == nil && pid != os.Getpid() && syscall.Kill(pid, 0) == syscall.ESRCH {
			_ = os.RemoveAll(d)
		}
	}
	d, err := os.MkdirTemp(parent, fmt.Sprintf(".verify-%d-*", os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("verify: %w (reports must be writable)", err)
	}
	return d, nil
}

// lockSuites waits until no other verify in this checkout runs its
// suites: each suite's test binary lies in the suite's own folder
// (designs/shop/shop.test) while the suites run and is removed afterwards,
// so two runs at once would run or remove each other's binaries.
func lockSuites(ctx context.Context) (unlock func(), err error) {
	return waitLock(ctx, os.Stdout, filepath.Join(filepath.Dir(ReportDir), ".verify.lock"),
		"verify: another verify in this checkout is running its suites; waiting for it to finish "+
			"(each suite's test binary lies in the suite's folder while it runs)")
}

// waitLock takes an exclusive lock on the file at path, saying waiting
// on w once if another process holds it. The lock ends with the process,
// however it ends.
func waitLock(ctx context.Context, w io.Writer, path, waiting string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("verify: %w (%s must be writable)", err, filepath.Dir(path))
	}
	said := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("verify: lock %s: %w", f.Name(), err)
		}
		if !said {
			fmt.Fprintln(w, waiting)
			said = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// reportFiles are what a finished run leaves in ReportDir.
var reportFiles = []string{"junit.xml", "report.json", "summary.md"}

// publish moves the finished reports from scratch into ReportDir, each
// with one rename: a reader sees a whole file, old or new, never half.
func publish(scratch string) error {
	if err := os.MkdirAll(ReportDir, 0o755); err != nil {
		return err
	}
	for _, f := range reportFiles {
		if err := os.Rename(filepath.Join(scratch, f), filepath.Join(ReportDir, f)); err != nil {
			return fmt.Errorf("verify: move report into place: %w", err)
		}
	}
	return nil
}

// mergeReports joins the groups' reports in dir into report.json and
// junit.xml.
func mergeReports(dir string) ([]types.Report, error) {
	var jsons, junits []string
	for _, g := range groups {
		jsons = append(jsons, filepath.Join(dir, "report-"+g+".json"))
		junits = append(junits, filepath.Join(dir, "junit-"+g+".xml"))
	}
	reports, err := MergeReports(filepath.Join(dir, "report.json"), jsons...)
	if err != nil {
		return nil, err
	}
	if err := MergeJUnit(filepath.Join(dir, "junit.xml"), junits...); err != nil {
		return nil, err
	}
	for _, f := range slices.Concat(jsons, junits) {
		_ = os.Remove(f)
	}
	return reports, nil
}

func writeSummary(dir string, cov Coverage, endpoint string) error {
	f, err := userfile.Create(filepath.Join(dir, "summary.md"), 0o644)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := cov.WriteMarkdown(f, endpoint); err != nil {
		return err
	}
	return f.Commit()
}
