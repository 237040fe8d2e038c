package endpoint

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/bench/endpoint/fault"
)

// StatusPath is where the endpoint answers a GET with its status
// document (Status, as JSON), for scripts; DynamoDB's own calls are POSTs
// to /.
const StatusPath = "/ddbharness/status"

// Status is what the endpoint has answered so far.
type Status struct {
	Requests  int64         `json:"requests"`  // data-plane calls decided by an emulator
	Throttled int64         `json:"throttled"` // of those, refused or with items unprocessed for the limits
	Conflicts int64         `json:"conflicts"` // of those, refused for a transaction conflict
	Passed    int64         `json:"passed"`    // other calls passed through to DynamoDB Local as sent
	Undecided int64         `json:"undecided"` // data-plane calls passed through undecided (Handler.Undecided)
	Tables    []TableStatus `json:"tables"`    // the tables emulated now
	// Faults is each fault rule's counts, in the rules' order (none: left out).
	Faults []fault.RuleStatus `json:"faults,omitempty"`
}

// TableStatus is one emulated table's limits.
type TableStatus struct {
	Name    string  `json:"name"`
	Billing string  `json:"billing"`
	RCU     int64   `json:"rcu,omitempty"`
	WCU     int64   `json:"wcu,omitempty"`
	GSIs    int     `json:"gsis"`
	Scale   float64 `json:"scale"`
	Calls   int     `json:"calls"`
}

// Status is the endpoint's status now.
func (h *Handler) Status() Status {
	var s Status
	s.Requests, s.Passed, s.Throttled, s.Conflicts = h.Totals()
	s.Undecided = h.Undecided()
	s.Faults = h.faults.Load().Status()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range h.tables {
		s.Tables = append(s.Tables, TableStatus{Name: t.name, Billing: string(t.schema.Billing), RCU: t.schema.RCU, WCU: t.schema.WCU,
			GSIs: len(t.schema.GSIs), Scale: t.em.Scale(), Calls: t.traffic.calls()})
	}
	slices.SortFunc(s.Tables, func(a, b TableStatus) int { return strings.Compare(a.Name, b.Name) })
	return s
}

func (h *Handler) serveStatus(w http.ResponseWriter) {
	b, err := json.Marshal(h.Status())
	if err != nil {
		internal(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
