// Package procgroup starts a command in a process group of its own and
// signals the whole group: the command and whatever it started (ginkgo's
// test processes, a shell's children), which a signal to the command alone
// would miss. A group of its own also keeps a terminal's Ctrl-C from
// reaching the command directly: the caller decides when and how it ends.
package procgroup
