package capacity

// Denial is the calls a run's limits emulator denied on one partition key
// value of a target (Model.Denied, emulate.Emulator.Denied): how many
// would have read (Reads) and written (Writes) there, and the read and
// write units they would have consumed there, each call priced from its
// own request before it was decided. The calls among them whose size was
// not known (UnsizedReads, UnsizedWrites) carry no units: they are put
// back at what a served call there consumed.
type Denial struct {
	Reads         int64   `json:"reads"`
	Writes        int64   `json:"writes"`
	RCU           float64 `json:"rcu,omitempty"`
	WCU           float64 `json:"wcu,omitempty"`
	UnsizedReads  int64   `json:"unsized_reads,omitempty"`
	UnsizedWrites int64   `json:"unsized_writes,omitempty"`
}

// Plus is d and o summed.
func (d Denial) Plus(o Denial) Denial {
	return Denial{Reads: d.Reads + o.Reads, Writes: d.Writes + o.Writes, RCU: d.RCU + o.RCU, WCU: d.WCU + o.WCU,
		UnsizedReads: d.UnsizedReads + o.UnsizedReads, UnsizedWrites: d.UnsizedWrites + o.UnsizedWrites}
}

// units is the demand d stands for: its priced units, and its unsized
// calls at per, what a served call of each side consumed.
func (d Denial) units(per usage) usage {
	return usage{d.RCU + float64(d.UnsizedReads)*per.rcu, d.WCU + float64(d.UnsizedWrites)*per.wcu}
}

// DeniedRow is one value's Denial: its target (designs.MainTable or a GSI,
// the partition space its calls were denied in) and partition key value.
type DeniedRow struct {
	Target string `json:"target"`
	Key    string `json:"key"`
	Denial
}
