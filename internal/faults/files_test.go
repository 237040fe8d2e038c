package faults_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/procgroup"
	"github.com/ddbharness/ddbharness/internal/runtest"
)

// fifo makes a named pipe no one writes to: opened for reading the
// usual way, it holds the reader for ever.
func fifo(dir, name string) string {
	GinkgoHelper()
	path := filepath.Join(dir, name)
	Expect(syscall.Mkfifo(path, 0o644)).To(Succeed())
	return path
}

// refusedAtOnce runs the command and expects it refused as bad input
// before anything starts, saying want.
func refusedAtOnce(want string, args ...string) string {
	GinkgoHelper()
	r := startBin(ownLocal(), args...)
	code, _ := r.waitExit(atOnce)
	Expect(code).To(Equal(exitBadInput), r.Output())
	Expect(r.Output()).To(ContainSubstring(want))
	Expect(r.Output()).NotTo(ContainSubstring("DynamoDB at"), "the test bed started before the refusal")
	return r.Output()
}

var _ = Describe("a file argument that is not a file a run wrote", Label("faults"), func() {
	It("refuses a baseline that is a device or a named pipe at once, where it read /dev/zero without end past SIGTERM", func() {
		out := GinkgoT().TempDir()
		refusedAtOnce("/dev/zero is not a regular file but a device", "bench", "--limits", "off", "--out", out, "--check-baseline", "/dev/zero", "shop")
		pipe := fifo(out, "baseline.json")
		refusedAtOnce(pipe+" is not a regular file but a named pipe", "bench", "--limits", "off", "--out", out, "--check-baseline", pipe, "shop")
	})

	It("refuses a baseline that lacks the scenario, or holds it on another pool, before the run instead of after it", func() {
		out := GinkgoT().TempDir()
		base := filepath.Join(out, "baseline.json")
		Expect(os.WriteFile(base, []byte(`{"format": "ddbharness-baseline/1", "scenarios": {"shop/browse": {"AP-01": {"rcu_per_call": 1, "wcu_per_call": 0, "cost_per_million": 0.125, "bytes_grown_per_call": 0}}}, "pools": {"shop/browse": 2000}}`), 0o644)).To(Succeed())
		refusedAtOnce("baseline has no scenario invoicing/month-end", "bench", "--limits", "off", "--out", out, "--check-baseline", base, "invoicing")
		refusedAtOnce("run with --pool 2000", "bench", "--limits", "off", "--out", out, "--check-baseline", base, "--pool", "200", "shop")
		b, err := os.ReadFile(base)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(base, []byte(strings.Replace(string(b), `"rcu_per_call": 1`, `"rcu_per_call": 1e308`, 1)), 0o644)).To(Succeed())
		refusedAtOnce("rcu_per_call is 1e+308, which no run measures", "bench", "--limits", "off", "--out", out, "--check-baseline", base, "shop")
	})

	It("refuses report folders whose metrics.json is a device or whose results.bin is a named pipe at once", func() {
		dir := filepath.Join(GinkgoT().TempDir(), "run")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.Symlink("/dev/zero", filepath.Join(dir, "metrics.json"))).To(Succeed())
		refusedAtOnce("metrics.json is not a regular file but a device", "report", "compare", dir, dir)

		Expect(os.Remove(filepath.Join(dir, "metrics.json"))).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "metrics.json"), []byte(`{"scenario": "shop/browse", "started": "2026-11-29T10:00:00Z", "total": {}, "capacity": {}}`), 0o644)).To(Succeed())
		fifo(dir, "results.bin")
		refusedAtOnce("results.bin is not a regular file but a named pipe", "report", "compare", dir, dir)
	})
})

// A pattern that shrinks items records a bytes_grown below 0: invoicing's
// month-end does. The merge refused such a real, unedited shard as
// "edited or damaged".
var _ = Describe("report merge of a real shard whose pattern shrinks items", Label("faults"), SpecPriority(1), func() {
	It("merges it", func(ctx SpecContext) {
		out := GinkgoT().TempDir()
		shard := runtest.Command(ctx, repoRoot, given(shared(ctx)), bin, "bench", "--shard", "1/1", "--run", "shrinks", "--duration", "3s", "--pool", "300",
			"--out", filepath.Join(out, "shards"), "invoicing/month-end")
		Expect(shard.Code).To(Equal(exitOK), shard.Output)
		dirs, err := filepath.Glob(filepath.Join(out, "shards", "*-shrinks-shard1of1"))
		Expect(err).NotTo(HaveOccurred())
		Expect(dirs).To(HaveLen(1))
		Expect(shrunk(filepath.Join(dirs[0], "shard.json"))).To(BeTrue(), "no pattern of the run shrank items: the spec checks nothing")
		merged := runtest.Command(ctx, repoRoot, nil, bin, "report", "merge", "--out", filepath.Join(out, "merged"), dirs[0])
		Expect(merged.Code).To(Equal(exitOK), merged.Output)
	}, SpecTimeout(5*time.Minute))
})

// shrunk reports whether a pattern of the shard file at path grew the
// table by less than 0 bytes.
func shrunk(path string) bool {
	GinkgoHelper()
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	var f struct {
		Ledger struct {
			Patterns []struct {
				Grown int64 `json:"bytes_grown"`
			} `json:"patterns"`
		} `json:"ledger"`
	}
	Expect(json.Unmarshal(b, &f)).To(Succeed())
	for _, p := range f.Ledger.Patterns {
		if p.Grown < 0 {
			return true
		}
	}
	return false
}

// An import killed during its go vet, by SIGKILL, which it cannot catch,
// leaves no design registered: the vet checks the code before any of it
// is written. The go command it runs is one that holds the vet until it
// is killed (a named pipe no one writes), so the kill lands mid-vet.
var _ = Describe("import-model killed during its go vet", Label("faults"), func() {
	It("leaves no design registered and no file of it but an empty folder", func(ctx context.Context) {
		tmp := GinkgoT().TempDir()
		repo := filepath.Join(tmp, "repo")
		for _, f := range []string{"go.mod", "designs/all/all.go", "scenarios/scenarios.go", "fixtures/fixtures.go", "docs/models/gallery.json"} {
			b, err := os.ReadFile(filepath.Join(repoRoot, f))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.MkdirAll(filepath.Dir(filepath.Join(repo, f)), 0o755)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(repo, f), b, 0o644)).To(Succeed())
		}
		before := snapshot(repo)
		fake := filepath.Join(tmp, "bin")
		Expect(os.MkdirAll(fake, 0o755)).To(Succeed())
		gate, vetting := fifo(tmp, "gate"), filepath.Join(tmp, "vetting")
		Expect(os.WriteFile(filepath.Join(fake, "go"), []byte("#!/bin/sh\n: > \"$VETTING\"\nexec cat \"$GATE\"\n"), 0o755)).To(Succeed())
		env := []string{"PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH"), "GATE=" + gate, "VETTING=" + vetting}

		r := start(repo, env, bin, "import-model", "-name", "killed", "docs/models/gallery.json")
		Eventually(func() bool { _, err := os.Stat(vetting); return err == nil || r.exited() }).
			WithTimeout(2*time.Minute).WithPolling(50*time.Millisecond).Should(BeTrue(), "go vet never started")
		Expect(r.exited()).To(BeFalse(), r.Output())
		Expect(procgroup.Kill(r.Command)).To(Succeed())
		code, _ := r.waitExit(exitWait)
		Expect(code).To(Equal(-1), "killed by SIGKILL")

		Expect(snapshot(repo)).To(Equal(before), "the registry or a file of the design changed:\n%s", r.Output())
		es, err := os.ReadDir(filepath.Join(repo, "designs", "killed"))
		if err == nil {
			Expect(es).To(BeEmpty(), "designs/killed holds files of a design never checked")
		}
	})
})

// snapshot is every file under root but empty folders, with its content.
func snapshot(root string) map[string]string {
	GinkgoHelper()
	files := map[string]string{}
	Expect(filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		files[strings.TrimPrefix(path, root)] = string(b)
		return err
	})).To(Succeed())
	return files
}
