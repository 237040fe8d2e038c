package capacity

import (
	"time"

	"github.com/ddbharness/ddbharness/bench/capacity/rules"
	"github.com/ddbharness/ddbharness/bench/ledger"
	"github.com/ddbharness/ddbharness/designs"
)

// Report is the capacity model's verdict on one run, for metrics.json and,
// through its Findings (package bench/capacity/findings), summary.md. Rates are requests per second of the run's
// whole mix; units are per second unless named totals.
type Report struct {
	Billing      string        `json:"billing"` // "on-demand" or "provisioned"
	Start        time.Time     `json:"start"`   // the first second with a charge; Point.T counts from it
	Seconds      float64       `json:"seconds"`
	Requests     int64         `json:"requests"`
	MeasuredRate float64       `json:"measured_rate"`
	TargetRate   float64       `json:"target_rate,omitempty"`
	DeclaredPeak float64       `json:"declared_peak,omitempty"` // the design's model's rate at peak (Model.DeclaredPeak)
	Targets      []TargetUsage `json:"targets"`
	Hot          []HotKey      `json:"hot_keys"`
	Ceiling      *Ceiling      `json:"ceiling,omitempty"`
	// FirstLimit is what stops the mix first, of every kind of limit
	// (LimitsInOrder[0]); LimitsInOrder the lowest of each kind, lowest
	// first.
	FirstLimit    *Limit                `json:"first_limit,omitempty"`
	LimitsInOrder []Limit               `json:"limits_in_order,omitempty"`
	Warm          *WarmCeiling          `json:"warm_ceiling,omitempty"`
	Forecast      *Forecast             `json:"forecast,omitempty"`
	Replay        *Replay               `json:"replay,omitempty"`
	ReplaySource  *rules.Source         `json:"replay_source,omitempty"`
	Growth        []Growth              `json:"growth"`
	Cost          Cost                  `json:"cost"`
	Patterns      []ledger.PatternUsage `json:"patterns"`
	Disagreements []ledger.Disagreement `json:"disagreements"`
	Rules         []rules.Rule          `json:"rules"`
	Findings      []string              `json:"findings"` // set by findings.Of; Analyze leaves it empty
	// PutBack says how the calls the emulator denied were put back; nil
	// when none were (or the limits were off).
	PutBack *PutBack `json:"put_back,omitempty"`
	// Scale is the factor the run put on every limit (1: DynamoDB's own);
	// PartitionLimit names one partition's, scaled.
	Scale          float64 `json:"limits_scale"`
	PartitionLimit string  `json:"partition_limit"`
}

// Target kinds in TargetUsage.
const (
	kindTable = "table"
	kindGSI   = "gsi"
	kindLSI   = "lsi"
)

// TargetUsage is the run's traffic on the table or one index: total units,
// the busiest second, the partition keys it touched, and for a provisioned
// table its throughput and the partitions DynamoDB would give it.
type TargetUsage struct {
	Target         string  `json:"target"`
	Kind           string  `json:"kind"` // "table", "gsi" or "lsi"
	RCU            float64 `json:"rcu"`
	WCU            float64 `json:"wcu"`
	PeakRCU        float64 `json:"peak_rcu"`
	PeakWCU        float64 `json:"peak_wcu"`
	Keys           int     `json:"keys"`
	ProvisionedRCU int64   `json:"provisioned_rcu,omitempty"`
	ProvisionedWCU int64   `json:"provisioned_wcu,omitempty"`
	Partitions     int     `json:"partitions,omitempty"`
}

// HotKey is one of the busiest partition key values of a target, ranked as
// CloudWatch Contributor Insights ranks them (Score = 3 × WCU + RCU over the
// run; Share of the target's score). ThrottleRate is the request rate of
// the mix at which its partition, with the hot keys the run placed there,
// reaches the per-partition limit (on an LSI, the table partition it
// shares): a forecast, ThrottleRateSource says on what. Series is its
// traffic per second.
type HotKey struct {
	Target       string            `json:"target"`
	Key          string            `json:"key"`
	Score        float64           `json:"score"`
	Share        float64           `json:"share"`
	RCU          float64           `json:"rcu"`
	WCU          float64           `json:"wcu"`
	PeakRCU      float64           `json:"peak_rcu"`
	PeakWCU      float64           `json:"peak_wcu"`
	Pattern      designs.PatternID `json:"pattern"` // the pattern that weighs most on it
	ThrottleRate float64           `json:"throttle_rate,omitempty"`
	// ThrottleRateSource is what ThrottleRate rests on.
	ThrottleRateSource *rules.Source `json:"throttle_rate_source,omitempty"`
	// OneItem is set when all the key's traffic on Target went to one item
	// (every key of a target without a sort key is one item): adaptive
	// capacity may give that item a partition of its own but cannot split
	// it, so the partition's limit is the key's ceiling whatever the table
	// does.
	OneItem bool    `json:"one_item,omitempty"`
	Series  []Point `json:"series"`
}

// Point is one second of a key's traffic, T seconds after Report.Start.
type Point struct {
	T   int     `json:"t"`
	RCU float64 `json:"rcu"`
	WCU float64 `json:"wcu"`
}

// Ceiling is the first limit the mix reaches as its rate grows: a
// partition key (Key set) or a whole table or index (Key empty), at Rate
// requests per second, Factor times the measured rate; Source says what
// Rate rests on.
type Ceiling struct {
	Target  string            `json:"target"`
	Key     string            `json:"key,omitempty"`
	Limit   string            `json:"limit"`
	Rate    float64           `json:"rate"`
	Factor  float64           `json:"factor"`
	Pattern designs.PatternID `json:"pattern,omitempty"`
	// BackPressure is set when the limit is a GSI's writes: DynamoDB then
	// throttles the base table's writes that feed it.
	BackPressure bool `json:"back_pressure,omitempty"`
	// Side is the side that reaches the limit, SideRead or SideWrite;
	// Reason is the throttling reason DynamoDB gives there
	// (throughput.Reason), Metric the CloudWatch metric that counts its
	// events.
	Side   string `json:"side,omitempty"`
	Reason string `json:"reason,omitempty"`
	Metric string `json:"cloudwatch_metric,omitempty"`
	// Splittable is set when the key's items could be spread over several
	// partitions (the target has a sort key and no LSI pins its item
	// collections to one partition): adaptive capacity may isolate busy
	// items, which helps traffic spread over many items, never one item.
	Splittable bool `json:"splittable,omitempty"`
	// Sharing, for a partition key, is the key's rate alone, with the other
	// keys spread as likely, with the hot keys together, and on the
	// partition the run placed it on (Rate), with the odds of sharing.
	Sharing *Sharing      `json:"sharing,omitempty"`
	Source  *rules.Source `json:"source,omitempty"`
	// EventualReads is set when the key's partition reaches its read limit
	// first and those reads are eventually consistent, which AWS was
	// measured serving above it (the findings say so).
	EventualReads bool `json:"eventual_reads,omitempty"`
}

// WarmCeiling is where a new on-demand table first throttles: the warm
// throughput of the table or a GSI (Target), ReadUnits or WriteUnits per
// second (Declared: the scenario's, else a new table's own), reached at
// Rate requests per second of the mix, Factor times the measured rate.
// DynamoDB serves up to double a table's previous peak at once and may
// throttle traffic that more than doubles it within 30 minutes, so traffic
// that ramps up reaches GrowTo requests per second (the target rate above
// Rate, else the first steady ceiling) after Doublings doublings, about
// GrowSeconds (counting the warm throughput as the first peak). At the
// target rate, DayOneRefused of the units on the side that binds would be
// refused before the table grows. Source says what the limit and Rate
// rest on, GrowSource the growth, RefusedSource DayOneRefused.
type WarmCeiling struct {
	Target        string        `json:"target"`
	Limit         string        `json:"limit"`
	Side          string        `json:"side"` // "RRU" or "WRU": the side the mix reaches first
	ReadUnits     float64       `json:"read_units_per_second"`
	WriteUnits    float64       `json:"write_units_per_second"`
	Declared      bool          `json:"declared,omitempty"`
	Rate          float64       `json:"rate"`
	Factor        float64       `json:"factor"`
	GrowTo        float64       `json:"grow_to_rate,omitempty"`
	Doublings     int           `json:"doublings,omitempty"`
	GrowSeconds   float64       `json:"grow_seconds,omitempty"`
	DayOneRefused float64       `json:"day_one_refused,omitempty"`
	Source        *rules.Source `json:"source,omitempty"`
	GrowSource    *rules.Source `json:"grow_source,omitempty"`
	RefusedSource *rules.Source `json:"day_one_refused_source,omitempty"`
}

// Forecast is the model's prediction at the target rate: the fraction of
// requests DynamoDB would throttle, and every key or target over its limit.
// BurstSeconds is how long burst capacity would hold off throttling of a
// provisioned table or GSI whose bank is full (BurstBank seconds of its
// throughput unused: idle before the burst), BurstAfterRunSeconds how long
// when the bank holds what the measured rate left unused for that long.
// Burst never lifts a partition over its own limit, and AWS does not
// guarantee it. Source says what ThrottledFraction and Over rest on,
// BurstSource, BurstAfterRunSource and ReplaySource the others.
type Forecast struct {
	Rate                 float64    `json:"rate"`
	ThrottledFraction    float64    `json:"throttled_fraction"`
	Over                 []Pressure `json:"over"`
	BurstSeconds         float64    `json:"burst_seconds,omitempty"`
	BurstAfterRunSeconds float64    `json:"burst_after_run_seconds"`
	BurstBank            float64    `json:"burst_bank_seconds,omitempty"`
	// Replay is the run's hot keys replayed through the throughput engine
	// at Rate: each call as measured, Rate over the measured rate times as
	// many.
	Replay              *Replay       `json:"replay,omitempty"`
	Source              *rules.Source `json:"source,omitempty"`
	BurstSource         *rules.Source `json:"burst_source,omitempty"`
	BurstAfterRunSource *rules.Source `json:"burst_after_run_source,omitempty"`
	ReplaySource        *rules.Source `json:"replay_source,omitempty"`
}

// Pressure is one partition key (Key set) or one table or index (Key
// empty) over its limit at the forecast rate: the units it would need per
// second, its utilisation of the limit (1 = at it), and the share of its
// units DynamoDB would refuse.
type Pressure struct {
	Target       string  `json:"target"`
	Key          string  `json:"key,omitempty"`
	Limit        string  `json:"limit"`
	RCU          float64 `json:"rcu"`
	WCU          float64 `json:"wcu"`
	Utilization  float64 `json:"utilization"`
	Refused      float64 `json:"refused"`
	BackPressure bool    `json:"back_pressure,omitempty"`
}

// Growth is an item, an item collection or a GSI partition key value that
// repeated writes enlarged during the run (MinGrowthWrites): its latest
// known size, the bytes the run added, the growth per second at the
// measured rate, and how long until it reaches its limit at the measured
// and at the target rate (0: no limit applies, or it does not grow).
// Collections and index keys are known only through the items the run
// wrote: Bytes is a lower bound. Source says what the times to a limit
// rest on: the run's growth extrapolated.
type Growth struct {
	Kind            string        `json:"kind"`             // "item", "collection" or "index key"
	Target          string        `json:"target,omitempty"` // the GSI of an index key
	Key             string        `json:"key"`
	Sort            string        `json:"sort,omitempty"`
	Bytes           int           `json:"bytes"`
	Added           int           `json:"added"`
	BytesPerSecond  float64       `json:"bytes_per_second"`
	Limit           int64         `json:"limit,omitempty"`
	SecondsToLimit  float64       `json:"seconds_to_limit,omitempty"`
	SecondsAtTarget float64       `json:"seconds_to_limit_at_target,omitempty"`
	Source          *rules.Source `json:"source,omitempty"`
}

// Cost is the price of the mix per million requests, on demand and
// provisioned (sized for the mix at Utilization of the provisioned
// throughput, as auto scaling targets: UtilizationSource), with the prices
// it used.
type Cost struct {
	Region           string  `json:"region"`
	TableClass       string  `json:"table_class"`
	PriceDate        string  `json:"price_date"`
	Source           string  `json:"source"`
	RCUPerRequest    float64 `json:"rcu_per_request"`
	WCUPerRequest    float64 `json:"wcu_per_request"`
	OnDemand         float64 `json:"on_demand_per_million"`
	Provisioned      float64 `json:"provisioned_per_million"`
	Utilization      float64 `json:"provisioned_utilization"`
	ReadRequestUnit  float64 `json:"price_per_million_rru"`
	WriteRequestUnit float64 `json:"price_per_million_wru"`
	RCUHour          float64 `json:"price_per_rcu_hour"`
	WCUHour          float64 `json:"price_per_wcu_hour"`
	// UtilizationSource is what Utilization rests on.
	UtilizationSource *rules.Source `json:"provisioned_utilization_source,omitempty"`
}

// FirstRate is the rate of the whole mix at which the model forecasts the
// first limit: the lowest of the first limit of every kind (FirstLimit: a
// transaction conflict limit among them), the first ceiling (a partition,
// a table or an index) and a new table's warm throughput; 0 when it
// forecasts none at any rate. The headline's "first limit" and the
// headroom threshold both read it.
func (r Report) FirstRate() float64 {
	first := 0.0
	lower := func(rate float64) {
		if rate > 0 && (first == 0 || rate < first) {
			first = rate
		}
	}
	if r.FirstLimit != nil {
		lower(r.FirstLimit.Rate)
	}
	if r.Ceiling != nil {
		lower(r.Ceiling.Rate)
	}
	if r.Warm != nil {
		lower(r.Warm.Rate)
	}
	return first
}
