package endpoint

import (
	"context"
	"errors"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/meter"
	"github.com/ddbharness/ddbharness/bench/throughput"
	"github.com/ddbharness/ddbharness/designs"
)

// table is one emulated table: its emulator and the instrumented client
// its calls go through, which debits what each consumed by AWS's rules.
type table struct {
	name    string
	schema  designs.Schema
	cfg     emulate.Config
	em      *emulate.Emulator
	db      *meter.Client
	traffic *traffic
}

// asked is the throughput a client's CreateTable or UpdateTable asked
// for that DynamoDB Local may not describe back: warm throughput and the
// on-demand maximum, the table's and each GSI's (with its provisioned
// units).
type asked struct {
	warm    *types.WarmThroughput
	max     *types.OnDemandThroughput
	units   *types.ProvisionedThroughput // a GSI's
	indexes map[string]asked
}

// index notes what a GSI name was asked; nil values leave what was.
func (a *asked) index(name *string, units *types.ProvisionedThroughput, warm *types.WarmThroughput, max *types.OnDemandThroughput) {
	if a.indexes == nil {
		a.indexes = map[string]asked{}
	}
	ix := a.indexes[aws.ToString(name)]
	if units != nil {
		ix.units = units
	}
	if warm != nil {
		ix.warm = warm
	}
	if max != nil {
		ix.max = max
	}
	a.indexes[aws.ToString(name)] = ix
}

// tableOf is the emulated table name, built at its first call from what
// DynamoDB Local describes and what the client asked for; nil when Local
// does not know the table (Local then answers the call).
func (h *Handler) tableOf(ctx context.Context, name string) (*table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.tables[name]; t != nil {
		return t, nil
	}
	out, err := h.db.DescribeTable(designs.WithHarnessCall(ctx), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var missing *types.ResourceNotFoundException
	if errors.As(err, &missing) {
		return nil, nil
	}
	if err != nil || out.Table == nil {
		return nil, err
	}
	s, cfg := h.limits(out.Table, h.asked[name])
	em := emulate.New(s, cfg)
	t := &table{name: name, schema: s, cfg: cfg, em: em, traffic: newTraffic(s)}
	// As a bench run is wired: the ledger prices each call by AWS's rules,
	// and the emulator debits what it charged.
	sdk := dynamodb.New(h.db.Options(), em.Install, meet)
	var db designs.DB = sdk
	if short := newShortClient(sdk, h.http); short != nil {
		db = short
	}
	t.db = meter.NewClient(db, s, meter.Verbatim())
	emulate.Attach(em, t.db, t.traffic.observe)
	em.Enable()
	h.tables[name] = t
	return t, nil
}

// forget drops what the endpoint knew of a table whose limits a passing
// CreateTable, UpdateTable or DeleteTable changed: its next call builds it
// again. in is the request, for the throughput it asked.
func (h *Handler) forget(name string, in any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.tables[name]; t != nil {
		h.retired = append(h.retired, t) // its traffic is still reported
	}
	delete(h.tables, name)
	switch in := in.(type) {
	case *dynamodb.CreateTableInput:
		a := asked{warm: in.WarmThroughput, max: in.OnDemandThroughput}
		for _, g := range in.GlobalSecondaryIndexes {
			a.index(g.IndexName, g.ProvisionedThroughput, g.WarmThroughput, g.OnDemandThroughput)
		}
		h.asked[name] = a
	case *dynamodb.UpdateTableInput:
		a := h.asked[name]
		if in.WarmThroughput != nil {
			a.warm = in.WarmThroughput
		}
		if in.OnDemandThroughput != nil {
			a.max = in.OnDemandThroughput
		}
		a.indexes = maps.Clone(a.indexes)
		for _, u := range in.GlobalSecondaryIndexUpdates {
			switch {
			case u.Create != nil:
				a.index(u.Create.IndexName, u.Create.ProvisionedThroughput, u.Create.WarmThroughput, u.Create.OnDemandThroughput)
			case u.Update != nil:
				a.index(u.Update.IndexName, u.Update.ProvisionedThroughput, u.Update.WarmThroughput, u.Update.OnDemandThroughput)
			case u.Delete != nil:
				delete(a.indexes, aws.ToString(u.Delete.IndexName))
			}
		}
		h.asked[name] = a
	case *dynamodb.DeleteTableInput:
		delete(h.asked, name)
	}
}

// limits is the schema and emulator configuration of a table as d
// describes it and a asked, each GSI's own throughput included.
func (h *Handler) limits(d *types.TableDescription, a asked) (designs.Schema, emulate.Config) {
	s := designs.Schema{Types: map[string]types.ScalarAttributeType{}, Billing: types.BillingModePayPerRequest}
	if pks, sks := keys(d.KeySchema); len(pks) > 0 {
		s.PK = pks[0]
		if len(sks) > 0 {
			s.SK = sks[0]
		}
	}
	for _, ad := range d.AttributeDefinitions {
		s.Types[aws.ToString(ad.AttributeName)] = ad.AttributeType
	}
	for _, g := range d.GlobalSecondaryIndexes {
		s.GSIs = append(s.GSIs, index(aws.ToString(g.IndexName), g.KeySchema, g.Projection))
	}
	for _, l := range d.LocalSecondaryIndexes {
		s.LSIs = append(s.LSIs, index(aws.ToString(l.IndexName), l.KeySchema, l.Projection))
	}
	if p := d.ProvisionedThroughput; p != nil && aws.ToInt64(p.ReadCapacityUnits) > 0 {
		s.Billing, s.RCU, s.WCU = types.BillingModeProvisioned, aws.ToInt64(p.ReadCapacityUnits), aws.ToInt64(p.WriteCapacityUnits)
	}
	if b := d.BillingModeSummary; b != nil && b.BillingMode != "" {
		s.Billing = b.BillingMode
	}
	cfg := h.cfg.Limits
	if w := d.WarmThroughput; w != nil {
		cfg.WarmReads, cfg.WarmWrites = float64(aws.ToInt64(w.ReadUnitsPerSecond)), float64(aws.ToInt64(w.WriteUnitsPerSecond))
	}
	if w := a.warm; w != nil {
		cfg.WarmReads, cfg.WarmWrites = float64(aws.ToInt64(w.ReadUnitsPerSecond)), float64(aws.ToInt64(w.WriteUnitsPerSecond))
	}
	m := d.OnDemandThroughput
	if a.max != nil {
		m = a.max
	}
	if m != nil { // -1: no maximum
		cfg.MaxReads, cfg.MaxWrites = float64(max(0, aws.ToInt64(m.MaxReadRequestUnits))), float64(max(0, aws.ToInt64(m.MaxWriteRequestUnits)))
	}
	cfg.Indexes = nil
	for _, g := range d.GlobalSecondaryIndexes {
		name := aws.ToString(g.IndexName)
		var it throughput.IndexThroughput
		if p := g.ProvisionedThroughput; p != nil {
			it.RCU, it.WCU = float64(aws.ToInt64(p.ReadCapacityUnits)), float64(aws.ToInt64(p.WriteCapacityUnits))
		}
		if w := g.WarmThroughput; w != nil {
			it.WarmReads, it.WarmWrites = float64(aws.ToInt64(w.ReadUnitsPerSecond)), float64(aws.ToInt64(w.WriteUnitsPerSecond))
		}
		ai := a.indexes[name]
		if p := ai.units; p != nil {
			it.RCU, it.WCU = float64(aws.ToInt64(p.ReadCapacityUnits)), float64(aws.ToInt64(p.WriteCapacityUnits))
		}
		if w := ai.warm; w != nil {
			it.WarmReads, it.WarmWrites = float64(aws.ToInt64(w.ReadUnitsPerSecond)), float64(aws.ToInt64(w.WriteUnitsPerSecond))
		}
		m := g.OnDemandThroughput
		if ai.max != nil {
			m = ai.max
		}
		if m != nil {
			it.MaxReads, it.MaxWrites = float64(max(0, aws.ToInt64(m.MaxReadRequestUnits))), float64(max(0, aws.ToInt64(m.MaxWriteRequestUnits)))
		}
		if it != (throughput.IndexThroughput{}) {
			if cfg.Indexes == nil {
				cfg.Indexes = map[string]throughput.IndexThroughput{}
			}
			cfg.Indexes[name] = it
		}
	}
	return s, cfg
}

// keys is a key schema's attributes: its partition key's (HASH) and its
// sort key's (RANGE), each in order; a GSI's multi-attribute key has
// several of either.
func keys(ks []types.KeySchemaElement) (pks, sks []string) {
	for _, k := range ks {
		switch k.KeyType {
		case types.KeyTypeHash:
			pks = append(pks, aws.ToString(k.AttributeName))
		case types.KeyTypeRange:
			sks = append(sks, aws.ToString(k.AttributeName))
		}
	}
	return pks, sks
}

// index is a secondary index as a key schema describes it, keyed by every
// attribute of a multi-attribute key.
func index(name string, ks []types.KeySchemaElement, p *types.Projection) designs.Index {
	ix := designs.Index{Name: name, Projection: types.ProjectionTypeAll}
	pks, sks := keys(ks)
	if len(pks) > 1 {
		ix.PKs = pks
	} else if len(pks) == 1 {
		ix.PK = pks[0]
	}
	if len(sks) > 1 {
		ix.SKs = sks
	} else if len(sks) == 1 {
		ix.SK = sks[0]
	}
	if p != nil {
		ix.Projection, ix.NonKey = p.ProjectionType, p.NonKeyAttributes
	}
	return ix
}
