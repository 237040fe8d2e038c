package verify

import (
	"os"
	"path/filepath"
	"testing"
)

func TestScratchAndPublish(t *testing.T) {
	// Reports outside the checkout, without a chdir: go test reuses a
	// result only when the folders it ran in and read are as they were.
	was := ReportDir
	t.Cleanup(func() { ReportDir = was })
	reports := filepath.Join(t.TempDir(), "reports")
	ReportDir = filepath.Join(reports, "verify")
	// A folder left by a run that died (no such process) goes; a live
	// run's folder stays.
	dead := filepath.Join(reports, ".verify-999999999-x")
	live := filepath.Join(reports, ".verify-1-x")
	for _, d := range []string{dead, live} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, err := scratchDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("scratchDir left a dead run's folder %s", dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("scratchDir removed a live run's folder %s: %v", live, err)
	}
	for _, f := range reportFiles {
		if err := os.WriteFile(filepath.Join(s, f), []byte("new "+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := publish(s); err != nil {
		t.Fatal(err)
	}
	for _, f := range reportFiles {
		b, err := os.ReadFile(filepath.Join(ReportDir, f))
		if err != nil || string(b) != "new "+f {
			t.Errorf("%s after publish = %q, %v; want %q", f, b, err, "new "+f)
		}
	}
}
