package endpoint

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/bench/emulate"
	"github.com/ddbharness/ddbharness/bench/meter"
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
// on-demand maximum.
type asked struct {
	warm *types.WarmThroughput
	max  *types.OnDemandThroughput
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
	t.db = meter.NewClient(dynamodb.New(h.db.Options(), em.Install), s, meter.Verbatim())
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
		h.asked[name] = asked{in.WarmThroughput, in.OnDemandThroughput}
	case *dynamodb.UpdateTableInput:
		a := h.asked[name]
		if in.WarmThroughput != nil {
			a.warm = in.WarmThroughput
		}
		if in.OnDemandThroughput != nil {
			a.max = in.OnDemandThroughput
		}
		h.asked[name] = a
	case *dynamodb.DeleteTableInput:
		delete(h.asked, name)
	}
}

// limits is the schema and emulator configuration of a table as d
// describes it and a asked. A GSI's own provisioned throughput is not
// kept: the emulator gives every GSI its table's.
func (h *Handler) limits(d *types.TableDescription, a asked) (designs.Schema, emulate.Config) {
	s := designs.Schema{Types: map[string]types.ScalarAttributeType{}, Billing: types.BillingModePayPerRequest}
	s.PK, s.SK = keys(d.KeySchema)
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
	return s, cfg
}

func keys(ks []types.KeySchemaElement) (pk, sk string) {
	for _, k := range ks {
		switch k.KeyType {
		case types.KeyTypeHash:
			pk = aws.ToString(k.AttributeName)
		case types.KeyTypeRange:
			sk = aws.ToString(k.AttributeName)
		}
	}
	return pk, sk
}

func index(name string, ks []types.KeySchemaElement, p *types.Projection) designs.Index {
	ix := designs.Index{Name: name, Projection: types.ProjectionTypeAll}
	ix.PK, ix.SK = keys(ks)
	if p != nil {
		ix.Projection, ix.NonKey = p.ProjectionType, p.NonKeyAttributes
	}
	return ix
}
