package throughput

import (
	"math"
	"math/bits"

	"github.com/ddbharness/ddbharness/ddbitem"
)

// Placement is the partition, of n, that holds partition key value key:
// the same in every run of one seed, so a spec can choose keys that share
// a partition or do not, and each seed is another draw. Where AWS places
// a key is not public (inferred). The key's FNV-1a hash, xored with the
// mixed seed, goes through SplitMix64's finalizer, so that over many seeds
// h keys share a partition as often as keys placed at random would
// (capacity.ShareOdds); a salt without a final mix barely moved which keys
// collide. Multiply-high maps the mixed hash onto [0, n) by its top bits.
func Placement(key string, n int, seed uint64) int {
	h := uint64(fnvOffset)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= fnvPrime
	}
	part, _ := bits.Mul64(mix64(h^mix64(seed)), uint64(n))
	return int(part)
}

// FNV-1a's 64-bit offset basis and prime, hash/fnv's, so that the key is
// hashed as a string, with no conversion to bytes.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// mix64 is SplitMix64's finalizer: every input bit moves about half the
// output bits. Source: https://prng.di.unimi.it/splitmix64.c
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
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
