// Package verify runs make verify (Run): one DynamoDB Local, the unit
// tests of pure code under go test, the suites that reach DynamoDB under
// ginkgo in three groups at once, each child in a process group that ends
// with the run, and the coverage gate. The gate reads what a Ginkgo run
// reported and checks it against the designs' catalogs: every pattern
// must have specs that ran and passed.
package verify
