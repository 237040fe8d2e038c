package faults_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/runtest"
)

var _ = Describe("make new-design with a hostile NAME", Label("faults"), func() {
	It("runs nothing the name says, refuses it, and changes nothing", func(ctx SpecContext) {
		repo := runtest.CopyRepo(ctx, repoRoot, filepath.Join(GinkgoT().TempDir(), "repo"))
		marker := filepath.Join(GinkgoT().TempDir(), "pwned")
		// make's GO runs the suite's built command instead of compiling
		// the copy again: the recipe's shell line is what is under test.
		goCmd := filepath.Join(GinkgoT().TempDir(), "go")
		Expect(os.WriteFile(goCmd, []byte("#!/bin/sh\n# drop run, its flags and ./cmd/ddbharness\nuntil [ \"$1\" = ./cmd/ddbharness ]; do shift; done; shift\nexec \""+bin+"\" \"$@\"\n"), 0o755)).To(Succeed())
		for _, v := range []string{"NAME", "ENTITY", "KEY", "GROUP"} {
			hostile := `x'; touch ` + marker + `; echo '`
			args := []string{"new-design", "GO=" + goCmd, v + "=" + hostile}
			if v != "NAME" {
				args = append(args, "NAME=library")
			}
			r := runtest.Command(ctx, repo, nil, "make", args...)
			Expect(r.Code).NotTo(Equal(exitOK), "make %v", args)
			Expect(r.Output).To(ContainSubstring("lower-case letters"), "the refusal says what a name may hold")
			_, err := os.Stat(marker)
			Expect(os.IsNotExist(err)).To(BeTrue(), "%s=%q ran a command", v, hostile)
			_, err = os.Stat(filepath.Join(repo, "designs", "library"))
			Expect(os.IsNotExist(err)).To(BeTrue(), "a refused scaffold wrote designs/library")
		}
	})
})
