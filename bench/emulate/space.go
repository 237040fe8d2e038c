package emulate

import (
	"github.com/ddbharness/ddbharness/bench/throughput"
)

// The two sides of throughput, throttled apart.
const (
	read  = throughput.Read
	write = throughput.Write
)

// space is the table (with its LSIs) or one GSI: the engine's partitions
// and budget, and what the emulator names it by.
type space struct {
	*throughput.Space
	name  string
	id    uint32 // name's id in the emulator's names
	arn   string
	index bool
}

// newSpace lays out a table's or a GSI's partitions and budget
// (throughput.NewSpace) from the schema and the emulator's config.
func (e *Emulator) newSpace(name, arn string, index bool, now int64) *space {
	c := throughput.ConfigOf(e.cfg.Settings, e.schema)
	if index {
		c = throughput.IndexConfigOf(e.cfg.Settings, e.schema, name)
	}
	return &space{Space: throughput.NewSpace(c, now), name: name, id: e.names.ID(name), arn: arn, index: index}
}

// consume debits a completed call's units on key's partition and the
// budget, and counts an isolation the second it began made.
func (s *space) consume(e *Emulator, now int64, key string, u [2]float64) int {
	i, isolated := s.Consume(key, u, now)
	if isolated {
		e.m.isolated(s)
	}
	return i
}

// Placement is the partition, of n placed by hash, that holds partition key
// value key until it is isolated, with the default seed: the same in every
// run, so a spec can choose keys that share a partition or do not.
func Placement(key string, n int) int { return throughput.Placement(key, n, 0) }
