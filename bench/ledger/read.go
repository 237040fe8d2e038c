package ledger

import (
	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/keytab"
	"github.com/ddbharness/ddbharness/internal/spill"
)

// What the capacity model reads of a ledger after the run, under Lock.

// Lock holds off Observe while the ledger is read; Unlock lets it go on.
func (l *Ledger) Lock()   { l.mu.Lock() }
func (l *Ledger) Unlock() { l.mu.Unlock() }

// First and Last are the unix seconds of the first and last charge; First
// is after Last when nothing was charged.
func (l *Ledger) First() int64 { return l.first }
func (l *Ledger) Last() int64  { return l.last }

// Observed is the number of calls observed.
func (l *Ledger) Observed() int64 { return l.observed }

// Schema is the table's, as the ledger prices its items.
func (l *Ledger) Schema() ddbitem.Schema { return l.schema }

// Names numbers the ledger's key texts.
func (l *Ledger) Names() *keytab.Numbering { return l.names }

// Targets are the calls that read from or wrote to each target.
func (l *Ledger) Targets() map[string]*TargetStats { return l.targets }

// Patterns are each pattern operation's figures.
func (l *Ledger) Patterns() map[PatternOp]*PatternUsage { return l.patterns }

// Diffs are where DynamoDB Local's figures and the ledger's disagree.
func (l *Ledger) Diffs() map[DiffKey]*Disagreement { return l.diffs }

// Collections are the table's partition key values the run wrote, by
// their texts' ids in Names.
func (l *Ledger) Collections() *spill.Map[uint32, CollectionTrack] { return l.collections }

// IndexKeys are the GSI partition key values the run wrote, as collections.
func (l *Ledger) IndexKeys() *spill.Map[SlotID, CollectionTrack] { return l.indexKeys }
