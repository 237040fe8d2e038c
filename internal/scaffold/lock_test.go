package scaffold_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"

	"github.com/ddbharness/ddbharness/internal/scaffold"
)

var _ = Describe("one writer at a time", Label("unit"), func() {
	It("makes a second Lock wait, saying so once, until the first lets go", func(ctx SpecContext) {
		root := GinkgoT().TempDir()
		unlock, err := scaffold.Lock(ctx, root, nil)
		Expect(err).NotTo(HaveOccurred())
		said := gbytes.NewBuffer()
		got := make(chan func())
		go func() {
			defer GinkgoRecover()
			second, err := scaffold.Lock(ctx, root, said)
			Expect(err).NotTo(HaveOccurred())
			got <- second
		}()
		Eventually(said, 10*time.Second).Should(gbytes.Say("waiting for it to finish"))
		Consistently(got, 200*time.Millisecond).ShouldNot(Receive(), "the second writer waits while the first holds the lock")
		unlock()
		var second func()
		Eventually(got, 10*time.Second).Should(Receive(&second))
		second()
		Expect(bytes.Count(said.Contents(), []byte("waiting"))).To(Equal(1))
	})

	It("stops waiting when its context ends", func(ctx SpecContext) {
		root := GinkgoT().TempDir()
		unlock, err := scaffold.Lock(ctx, root, nil)
		Expect(err).NotTo(HaveOccurred())
		defer unlock()
		waiting, cancel := context.WithCancel(ctx)
		cancel()
		_, err = scaffold.Lock(waiting, root, nil)
		Expect(err).To(MatchError(context.Canceled))
	})

	It("refuses a root that is not there, with the fix", func(ctx SpecContext) {
		_, err := scaffold.Lock(ctx, filepath.Join(GinkgoT().TempDir(), "missing"), nil)
		Expect(err).To(MatchError(scaffold.ErrRefused))
		Expect(err).To(MatchError(ContainSubstring("run from the ddbharness repository root")))
	})

	It("takes back only its own registry lines, keeping one another writer added since", func() {
		root := registrySnapshot()
		before := treeHashes(root, ".")
		p, err := scaffold.Prepare(root, scaffold.Names{Design: "library", Entity: "book"})
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Write()).To(Succeed())
		// Another writer's line, added after this plan wrote its own.
		all := filepath.Join(root, "designs", "all", "all.go")
		src, err := os.ReadFile(all)
		Expect(err).NotTo(HaveOccurred())
		theirs, err := scaffold.AddElement(src, "Designs", "other.Design", scaffold.Module+"/designs/other")
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(all, theirs, 0o644)).To(Succeed())

		p.Undo()
		src, err = os.ReadFile(all)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(src)).To(ContainSubstring("other.Design"))
		Expect(string(src)).To(ContainSubstring(`"` + scaffold.Module + `/designs/other"`))
		Expect(string(src)).NotTo(ContainSubstring("library"))
		ours, err := scaffold.RemoveElement(src, "Designs", "other.Design", scaffold.Module+"/designs/other")
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(all, ours, 0o644)).To(Succeed())
		Expect(treeHashes(root, ".")).To(Equal(before), "with the other writer's line gone too, the tree is as it was")
	})
})

var _ = Describe("removing a list element", Label("unit"), func() {
	DescribeTable("takes back what adding it added, byte for byte",
		func(src string) {
			added, err := scaffold.AddElement([]byte(src), "All", "x.Design", "example.com/x")
			Expect(err).NotTo(HaveOccurred())
			got, err := scaffold.RemoveElement(added, "All", "x.Design", "example.com/x")
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(src))
		},
		Entry("one element a line, with comments",
			"package p\n\nimport (\n\t\"example.com/a\"\n)\n\nvar All = []int{\n\ta.Design, // first\n}\n"),
		Entry("a one-line list and a one-line import",
			"package p\n\nimport \"example.com/a\"\n\nvar All = []int{a.Design}\n"),
		Entry("no imports yet, an empty list",
			"package p\n\nvar All = []int{}\n"),
	)

	It("takes an element out of the middle of a one-line list, and leaves a file without it as it is", func() {
		got, err := scaffold.RemoveElement([]byte("package p\n\nvar All = []int{a.Design, x.Design, b.Design}\n"), "All", "x.Design", "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal("package p\n\nvar All = []int{a.Design, b.Design}\n"))
		got, err = scaffold.RemoveElement(got, "All", "x.Design", "example.com/x")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal("package p\n\nvar All = []int{a.Design, b.Design}\n"))
	})
})

var _ = Describe("a repository it cannot write", Label("unit"), func() {
	It("says how to make it writable, and writes nothing", func() {
		root := registrySnapshot()
		p, err := scaffold.Prepare(root, scaffold.Names{Design: "library", Entity: "book"})
		Expect(err).NotTo(HaveOccurred())
		// A read-only folder refuses any user but root; an immutable one
		// (ext4, as the machines' /tmp) refuses root too.
		designs := filepath.Join(root, "designs")
		if os.Geteuid() != 0 {
			Expect(os.Chmod(designs, 0o555)).To(Succeed())
			DeferCleanup(func() { Expect(os.Chmod(designs, 0o755)).To(Succeed()) })
		} else {
			Expect(exec.Command("chattr", "+i", designs).Run()).To(Succeed(), "chattr +i on the test's own folder: as root, the test needs a temporary folder on ext4")
			DeferCleanup(func() { Expect(exec.Command("chattr", "-i", designs).Run()).To(Succeed()) })
		}
		before := treeHashes(root, ".")
		err = p.Write()
		Expect(err).To(MatchError(ContainSubstring("chmod -R u+w designs fixtures scenarios")))
		Expect(treeHashes(root, ".")).To(Equal(before))
	})
})
