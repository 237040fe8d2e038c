// Package runtest runs the harness the way a user does, for the specs
// that drive its commands (the fault-injection suite, the walkthroughs):
// a copy of the repository, a command with its output, exit code and
// time, and the machine's process table, to find what a run left behind.
// Nothing here reaches DynamoDB; internal/ddbtest wires suites to it.
package runtest
