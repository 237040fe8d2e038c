// Package designs is the shared model of a DynamoDB single-table design: its
// table (keys, indexes, billing), its catalog of access patterns, and the
// calls a pattern may make. Each design lives in its own package below this
// one and declares a Design value.
package designs
