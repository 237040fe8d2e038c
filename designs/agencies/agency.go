package agencies

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs"
)

// CreateAgency is AP-01 (main table, PutItem): a conditional put writes the
// agency only if its key is free, so of any number of concurrent creates of
// one ID exactly one wins; the others get designs.ErrAlreadyExists. Modified
// and ModifiedBy start as Created and CreatedBy, whatever a carries.
func (t Table) CreateAgency(ctx context.Context, a Agency) error {
	if a.ID == "" || a.Name == "" || a.Status == "" || !a.valid() {
		return fmt.Errorf("%s: agency %q: %w: ID, name, status, created and createdBy are required", CreateAgencyID, a.ID, designs.ErrInvalidInput)
	}
	a.Audit = a.made()
	if err := designs.PutNew(ctx, t.DB, t.Name, Schema, newAgencyItem(a)); err != nil {
		return fmt.Errorf("%s: agency %s: %w", CreateAgencyID, a.ID, err)
	}
	return nil
}

// UpdateAgency is AP-02 (main table, UpdateItem): it sets the non-empty
// fields of u and records e as modified/modifiedBy, and returns the agency
// as stored afterwards. GSI1 carries the change once it catches up. The
// update holds only if the agency exists, so an unknown ID is
// designs.ErrNotFound instead of a half-built item.
func (t Table) UpdateAgency(ctx context.Context, id string, u AgencyUpdate, e Edit) (Agency, error) {
	if id == "" || (u.Name == "" && u.Status == "") || !e.valid() {
		return Agency{}, fmt.Errorf("%s: agency %q: %w: ID, a name or status, and who and when are required", UpdateAgencyID, id, designs.ErrInvalidInput)
	}
	update := edited(e)
	if u.Name != "" {
		update = update.Set(expression.Name("name"), expression.Value(u.Name))
	}
	if u.Status != "" {
		update = update.Set(expression.Name("status"), expression.Value(u.Status))
	}
	a, err := designs.Update[Agency](ctx, t.DB, t.Name, Schema.Key(AgencyPK(id), AgencySK(id)), update, Schema.IsStored())
	if designs.IsConditionFailed(err) {
		return Agency{}, fmt.Errorf("%s: agency %s: %w", UpdateAgencyID, id, designs.ErrNotFound)
	}
	if err != nil {
		return Agency{}, fmt.Errorf("%s: agency %s: %w", UpdateAgencyID, id, err)
	}
	return a, nil
}

// DeleteAgency is AP-03 (main table, Query then TransactWriteItems): the
// agency goes together with all its members, so no membership outlives its
// agency on the table or on GSI2. A strongly consistent Query finds the
// partition's items; one transaction deletes them, the agency only if it
// still exists (designs.ErrNotFound otherwise, and nothing is deleted). An
// agency with more than MaxAgencyMembers members does not fit one
// transaction: designs.ErrTooManyActions, before any write. A member created
// between the Query and the transaction is not seen and survives.
func (t Table) DeleteAgency(ctx context.Context, id string) error {
	if id == "" {
		return fmt.Errorf("%s: agency: %w: ID is required", DeleteAgencyID, designs.ErrInvalidInput)
	}
	key := expression.Key(Schema.PK).Equal(expression.Value(AgencyPK(id)))
	proj := expression.NamesList(expression.Name(Schema.PK), expression.Name(Schema.SK), expression.Name(AttrType))
	expr, err := expression.NewBuilder().WithKeyCondition(key).WithProjection(proj).Build()
	if err != nil {
		return fmt.Errorf("%s: build: %w", DeleteAgencyID, err)
	}
	out, err := t.DB.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(t.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		ProjectionExpression:      expr.Projection(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ConsistentRead:            aws.Bool(true),
		Limit:                     aws.Int32(designs.MaxTransactActions + 1), // one more tells "too many"
	})
	if err != nil {
		return fmt.Errorf("%s: agency %s: query: %w", DeleteAgencyID, id, err)
	}
	if len(out.Items) == 0 {
		return fmt.Errorf("%s: agency %s: %w", DeleteAgencyID, id, designs.ErrNotFound)
	}
	if err := designs.CheckTransactSize(len(out.Items)); err != nil {
		return fmt.Errorf("%s: agency %s: more than %d members: %w", DeleteAgencyID, id, MaxAgencyMembers, err)
	}
	items, err := decodeAll[keys](out.Items)
	if err != nil {
		return fmt.Errorf("%s: agency %s: unmarshal: %w", DeleteAgencyID, id, err)
	}
	tx := designs.Tx{Table: t.Name}
	tx.Delete(Schema.Key(AgencyPK(id), AgencySK(id)), Schema.IsStored(), designs.Because(designs.ErrNotFound))
	for _, k := range items {
		if k.Type == TypeMember {
			tx.Delete(Schema.Key(k.PK, k.SK), expression.ConditionBuilder{}, nil) // gone already is fine
		}
	}
	if err := tx.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: agency %s: %w", DeleteAgencyID, id, err)
	}
	return nil
}

// GetAgency is AP-07 (main table, GetItem, strongly consistent): the doc
// reads the agency by its full primary key, which is exactly one GetItem.
// Unknown agency: designs.ErrNotFound.
func (t Table) GetAgency(ctx context.Context, id string) (Agency, error) {
	if id == "" {
		return Agency{}, fmt.Errorf("%s: agency: %w: ID is required", GetAgencyID, designs.ErrInvalidInput)
	}
	a, err := designs.Get[Agency](ctx, t.DB, t.Name, Schema.Key(AgencyPK(id), AgencySK(id)), true)
	if err != nil {
		return Agency{}, fmt.Errorf("%s: agency %s: %w", GetAgencyID, id, err)
	}
	return a, nil
}
