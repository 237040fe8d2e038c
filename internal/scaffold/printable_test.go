package scaffold_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/internal/scaffold"
)

var _ = Describe("Printable", Label("unit"), func() {
	DescribeTable("shows each character that would move, hide or drive a terminal's text as its Go escape, and keeps the rest",
		func(in, want string) { Expect(scaffold.Printable(in)).To(Equal(want)) },
		Entry("plain text, spaces and non-Latin letters", "Ship an order · 注文", "Ship an order · 注文"),
		Entry("a line break that would start a spoofed output line", "a\nimport-model: wrote", `a\nimport-model: wrote`),
		Entry("a carriage return and a tab", "a\r\tb", `a\r\tb`),
		Entry("an escape starting a colour sequence", "\x1b[31mred", `\x1b[31mred`),
		Entry("a window title sequence ended by a bell", "\x1b]0;t\a", `\x1b]0;t\a`),
		Entry("DEL and a C1 control", "a\x7fb\u009bc", `a\x7fb\u009bc`),
		Entry("a right-to-left override", "abc\u202edef", `abc\u202edef`),
		Entry("a byte that is not UTF-8", "a\xffb", `a\xffb`),
		Entry("the replacement character itself, which is text", "a\uFFFDb", "a\uFFFDb"),
	)
})
