package capacity

import "github.com/ddbharness/ddbharness/bench/ledger"

// Denial is the calls a run's limits emulator denied on one partition key
// value of a target (Model.Denied, emulate.Emulator.Denied): how many
// would have read (Reads) and written (Writes) there, and the read and
// write units they would have consumed there, each call priced from its
// own request before it was decided. Estimated counts the calls among
// them whose size was not known before they were sent (a Query or a
// Scan), priced at what calls on the value lately consumed; the calls
// whose size was not known at all (UnsizedReads, UnsizedWrites) carry no
// units: they are put back at what a served call there consumed.
type Denial struct {
	Reads         int64   `json:"reads"`
	Writes        int64   `json:"writes"`
	RCU           float64 `json:"rcu,omitempty"`
	WCU           float64 `json:"wcu,omitempty"`
	Estimated     int64   `json:"estimated,omitempty"`
	UnsizedReads  int64   `json:"unsized_reads,omitempty"`
	UnsizedWrites int64   `json:"unsized_writes,omitempty"`
}

// Plus is d and o summed.
func (d Denial) Plus(o Denial) Denial {
	return Denial{Reads: d.Reads + o.Reads, Writes: d.Writes + o.Writes, RCU: d.RCU + o.RCU, WCU: d.WCU + o.WCU,
		Estimated: d.Estimated + o.Estimated, UnsizedReads: d.UnsizedReads + o.UnsizedReads, UnsizedWrites: d.UnsizedWrites + o.UnsizedWrites}
}

// approximate counts d's calls not put back at their own size.
func (d Denial) approximate() int64 { return d.Estimated + d.UnsizedReads + d.UnsizedWrites }

// PutBack is how the demand of the calls the limits emulator denied was
// put back (Model.DeniedKeys): Denied counts each denied call once per
// partition key value it would have touched, Approximate those of them
// not put back at their own size (Denial's Estimated and unsized calls).
type PutBack struct {
	Denied      int64 `json:"denied"`
	Approximate int64 `json:"approximate"`
}

// putBack sums the denied rows, nil when none.
func (r *run) putBack() *PutBack {
	var p PutBack
	for _, d := range r.denied {
		p.Denied += d.Reads + d.Writes
		p.Approximate += d.approximate()
	}
	if p.Denied == 0 {
		return nil
	}
	return &p
}

// units is the demand d stands for: its priced units, and its unsized
// calls at per, what a served call of each side consumed.
func (d Denial) units(per ledger.Usage) ledger.Usage {
	return ledger.Usage{RCU: d.RCU + float64(d.UnsizedReads)*per.RCU, WCU: d.WCU + float64(d.UnsizedWrites)*per.WCU}
}

// DeniedRow is one value's Denial: its target (designs.MainTable or a GSI,
// the partition space its calls were denied in) and partition key value.
type DeniedRow struct {
	Target string `json:"target"`
	Key    string `json:"key"`
	Denial
}
