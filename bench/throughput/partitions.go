package throughput

import (
	"hash/fnv"
	"math"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// Placement is the partition, of n, that holds partition key value key,
// by an FNV-1a hash of the key salted with seed: the same in every run of
// one seed, so a spec can choose keys that share a partition or do not,
// and another seed is another draw. Where AWS places a key is not public.
func Placement(key string, n int, seed uint64) int {
	h := fnv.New64a()
	if seed != 0 {
		var b [8]byte
		for i := range b {
			b[i] = byte(seed >> (8 * i))
		}
		_, _ = h.Write(b[:])
	}
	_, _ = h.Write([]byte(key))
	return int(h.Sum64() % uint64(n))
}

// Partitions is how many partitions DynamoDB gives a provisioned table or
// GSI: enough for its throughput at 3,000 RCU and 1,000 WCU each, and for
// its data at 10 GB each. An on-demand one's is WarmPartitions.
// Source: the initial allocation formula in the DynamoDB Developer Guide,
// https://github.com/awsdocs/amazon-dynamodb-developer-guide/blob/master/doc_source/GuidelinesForTables.md
func Partitions(rcu, wcu, bytes int64) int {
	byThroughput := math.Ceil(float64(rcu)/ddbitem.PartitionRCU + float64(wcu)/ddbitem.PartitionWCU)
	bySize := math.Ceil(float64(bytes) / ddbitem.PartitionBytes)
	return max(1, int(byThroughput), int(bySize))
}

// WarmShare is the share of a warm throughput of warmR read and warmW
// write units per second that rcu read and wcu write units per second
// take. A new on-demand table serves its 12,000 RRU/s, or its 4,000 WRU/s,
// or a linear combination of the two: not both at once.
// Sources: AWS's statement of a new on-demand table's initial throughput,
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial
// (its earlier revision: "up to 4,000 WRU or 12,000 RRU, or a linear
// combination of the two"), restated in public load tests of new
// on-demand tables; the warm-throughput pages give the two figures
// without saying whether they add. Applying it to a declared or grown
// warm throughput is inferred.
func WarmShare(rcu, wcu, warmR, warmW float64) float64 {
	var s float64
	if rcu > 0 {
		s += rcu / warmR
	}
	if wcu > 0 {
		s += wcu / warmW
	}
	return s
}

// WarmPartitions is how many partitions an on-demand table or GSI of warm
// throughput warmR read and warmW write units per second has: enough to
// serve either alone at 3,000 RCU or 1,000 WCU each (so a linear
// combination too), and its data at 10 GB each. A new table's 12,000 RRU
// or 4,000 WRU is four partitions' worth; Partitions' sum, AWS's formula
// for provisioned throughput, would count it twice (eight).
// Inferred: AWS publishes no partition count for on-demand tables.
func WarmPartitions(warmR, warmW float64, bytes int64) int {
	byThroughput := math.Ceil(max(warmR/ddbitem.PartitionRCU, warmW/ddbitem.PartitionWCU))
	bySize := math.Ceil(float64(bytes) / ddbitem.PartitionBytes)
	return max(1, int(byThroughput), int(bySize))
}
