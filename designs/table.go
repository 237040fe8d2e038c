package designs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TablePrefix starts the name of every table the harness creates, so that
// against a shared endpoint it can tell its own tables from anyone else's.
const TablePrefix = "ddbh-"

// TableName makes a table name no other run uses: the design, a tag (the
// Ginkgo process "p3", a bench run) and the time.
func TableName(design, tag string) string {
	return fmt.Sprintf("%s%s-%s-%d", TablePrefix, design, tag, time.Now().UnixNano())
}

// tableWait bounds how long CreateTable and DeleteTable wait for the table
// to settle; DynamoDB Local answers at once, real DynamoDB within a minute.
const tableWait = 5 * time.Minute

// CreateTableInput turns the schema into a CreateTable request.
func (s Schema) CreateTableInput(name string) *dynamodb.CreateTableInput {
	attrs := map[string]bool{}
	var defs []types.AttributeDefinition
	def := func(attr string) {
		if attr == "" || attrs[attr] {
			return
		}
		attrs[attr] = true
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(attr), AttributeType: s.typeOf(attr)})
	}
	// keys is a key schema: a multi-attribute key's attributes each an
	// element of their own, the partition key's (HASH) before the sort
	// key's (RANGE), each in order, as CreateTable takes them.
	// Source: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
	keys := func(pks, sks []string) []types.KeySchemaElement {
		var ks []types.KeySchemaElement
		for _, a := range pks {
			def(a)
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(a), KeyType: types.KeyTypeHash})
		}
		for _, a := range sks {
			def(a)
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(a), KeyType: types.KeyTypeRange})
		}
		return ks
	}
	one := func(attr string) []string {
		if attr == "" {
			return nil
		}
		return []string{attr}
	}

	billing := s.Billing
	if billing == "" {
		billing = types.BillingModePayPerRequest
	}
	var throughput *types.ProvisionedThroughput
	if billing == types.BillingModeProvisioned {
		throughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(s.RCU), WriteCapacityUnits: aws.Int64(s.WCU)}
	}
	in := &dynamodb.CreateTableInput{
		TableName:             aws.String(name),
		KeySchema:             keys(one(s.PK), one(s.SK)),
		BillingMode:           billing,
		ProvisionedThroughput: throughput,
	}
	for _, ix := range s.GSIs {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:             aws.String(ix.Name),
			KeySchema:             keys(ix.PartitionAttrs(), ix.SortAttrs()),
			Projection:            ix.projection(),
			ProvisionedThroughput: throughput,
		})
	}
	for _, ix := range s.LSIs {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName:  aws.String(ix.Name),
			KeySchema:  keys(one(s.PK), ix.SortAttrs()),
			Projection: ix.projection(),
		})
	}
	in.AttributeDefinitions = defs
	return in
}

func (ix Index) projection() *types.Projection {
	p := &types.Projection{ProjectionType: ix.Projection}
	if p.ProjectionType == "" {
		p.ProjectionType = types.ProjectionTypeAll
	}
	if p.ProjectionType == types.ProjectionTypeInclude {
		p.NonKeyAttributes = ix.NonKey
	}
	return p
}

// CreateTable creates the table and waits until it and every GSI are
// active.
func CreateTable(ctx context.Context, db Admin, s Schema, name string) error {
	return Create(ctx, db, s.CreateTableInput(name), nil)
}

// AskWarm asks, on table creation, for warm throughput of reads and writes
// units per second on the table and on each GSI (0: not asked). DynamoDB
// Local accepts the parameter and ignores it.
func AskWarm(in *dynamodb.CreateTableInput, reads, writes int64) {
	if reads <= 0 && writes <= 0 {
		return
	}
	in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: positive(reads), WriteUnitsPerSecond: positive(writes)}
	for i := range in.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes[i].WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: positive(reads), WriteUnitsPerSecond: positive(writes)}
	}
}

// AskMaxOnDemand asks, on table creation, for a maximum throughput of
// reads and writes units per second (OnDemandThroughput) on the table and
// on each GSI (0: none on that side). DynamoDB Local keeps it.
func AskMaxOnDemand(in *dynamodb.CreateTableInput, reads, writes int64) {
	if reads <= 0 && writes <= 0 {
		return
	}
	in.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: positive(reads), MaxWriteRequestUnits: positive(writes)}
	for i := range in.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes[i].OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: positive(reads), MaxWriteRequestUnits: positive(writes)}
	}
}

// positive is v, nil when it is not above 0 (not asked).
func positive(v int64) *int64 {
	if v <= 0 {
		return nil
	}
	return aws.Int64(v)
}

// Create sends in and waits until the table and every GSI are active,
// telling progress (nil: nobody) how they stand as they change.
func Create(ctx context.Context, db Admin, in *dynamodb.CreateTableInput, progress func(TableState)) error {
	name := aws.ToString(in.TableName)
	if _, err := db.CreateTable(ctx, in); err != nil {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	if err := WaitActive(ctx, db, name, progress); err != nil {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	return nil
}

// DeleteTable deletes a table the harness created and waits until it is
// gone. It refuses any other name, whatever the endpoint.
func DeleteTable(ctx context.Context, db Admin, name string) error {
	if !strings.HasPrefix(name, TablePrefix) {
		return fmt.Errorf("delete table %s: %w: the harness deletes only tables named %s*", name, ErrInvalidInput, TablePrefix)
	}
	_, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	var busy *types.ResourceInUseException
	if errors.As(err, &busy) {
		// Real DynamoDB refuses to delete a table still being created.
		if err := WaitActive(ctx, db, name, nil); err != nil {
			return fmt.Errorf("delete table %s: %w", name, err)
		}
		_, err = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	}
	if err != nil {
		var missing *types.ResourceNotFoundException
		if errors.As(err, &missing) {
			return nil
		}
		return fmt.Errorf("delete table %s: %w", name, err)
	}
	w := dynamodb.NewTableNotExistsWaiter(db, func(o *dynamodb.TableNotExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = 50*time.Millisecond, 2*time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, tableWait); err != nil {
		return fmt.Errorf("delete table %s: wait until gone: %w", name, err)
	}
	return nil
}
