package invoicing

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// ClientInvoices is one page of AP-06: the client (first page only) and its
// invoices, newest first. Next is empty exactly when no invoice follows.
type ClientInvoices struct {
	Client   Client
	Invoices []Invoice
	Next     designs.Cursor
}

// ViewClientRecentInvoices is AP-06 (main table, Query, ScanIndexForward
// false): the client and its n newest invoices in one round trip; pass the
// returned Next as after for the n before those. The first page holds the
// client item too, so it reads n+1 items. Unknown client:
// designs.ErrNotFound.
func (t Table) ViewClientRecentInvoices(ctx context.Context, clientID string, n int, after designs.Cursor) (ClientInvoices, error) {
	if n < 1 {
		return ClientInvoices{}, fmt.Errorf("%s: page size %d: %w: want 1 or more", ViewClientRecentInvoicesID, n, designs.ErrInvalidInput)
	}
	first := after == ""
	size := n
	if first {
		size++ // the client item comes first
	}
	items, next, err := Schema.QueryPage(ctx, t.DB, designs.PageQuery{
		Table:    t.Name,
		Key:      expression.Key(Schema.PK).Equal(expression.Value(ClientPK(clientID))),
		Backward: true,
		Size:     size,
		After:    after,
	})
	if err != nil {
		return ClientInvoices{}, fmt.Errorf("%s: client %s: %w", ViewClientRecentInvoicesID, clientID, err)
	}
	page := ClientInvoices{Next: next}
	if err := decode(items, &page.Client, &page.Invoices, nil); err != nil {
		return ClientInvoices{}, fmt.Errorf("%s: client %s: %w", ViewClientRecentInvoicesID, clientID, err)
	}
	if first && page.Client.ID == "" {
		return ClientInvoices{}, fmt.Errorf("%s: client %s: %w", ViewClientRecentInvoicesID, clientID, designs.ErrNotFound)
	}
	return page, nil
}

// InvoiceDetail is an invoice with all its line items, in line order.
type InvoiceDetail struct {
	Invoice Invoice
	Lines   []LineItem
}

// ViewInvoice is AP-07 (GSI1, Query): the invoice and its line items share
// GSI1PK, the invoice sorting first. It reads every page, since an invoice
// holds at most MaxLineItems lines. GSI reads are eventually consistent: a
// just-written invoice may not show yet. Unknown invoice: designs.ErrNotFound.
func (t Table) ViewInvoice(ctx context.Context, invoiceID string) (InvoiceDetail, error) {
	key := expression.Key("GSI1PK").Equal(expression.Value(InvoiceGSI1PK(invoiceID)))
	expr, err := expression.NewBuilder().WithKeyCondition(key).Build()
	if err != nil {
		return InvoiceDetail{}, fmt.Errorf("%s: build: %w", ViewInvoiceID, err)
	}
	var detail InvoiceDetail
	var invoices []Invoice
	var start map[string]types.AttributeValue
	for {
		out, err := t.DB.Query(ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(t.Name),
			IndexName:                 aws.String(GSI1),
			KeyConditionExpression:    expr.KeyCondition(),
			ExpressionAttributeNames:  expr.Names(),
			ExpressionAttributeValues: expr.Values(),
			ExclusiveStartKey:         start,
		})
		if err != nil {
			return InvoiceDetail{}, fmt.Errorf("%s: invoice %s: %w", ViewInvoiceID, invoiceID, err)
		}
		if err := decode(out.Items, nil, &invoices, &detail.Lines); err != nil {
			return InvoiceDetail{}, fmt.Errorf("%s: invoice %s: %w", ViewInvoiceID, invoiceID, err)
		}
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	if len(invoices) != 1 {
		return InvoiceDetail{}, fmt.Errorf("%s: invoice %s: %w", ViewInvoiceID, invoiceID, designs.ErrNotFound)
	}
	detail.Invoice = invoices[0]
	return detail, nil
}

// decode sorts items by their Type into the given destinations; a nil
// destination means that type is not expected here.
func decode(items []map[string]types.AttributeValue, client *Client, invoices *[]Invoice, lines *[]LineItem) error {
	for _, item := range items {
		var k keys
		if err := attributevalue.UnmarshalMap(item, &k); err != nil {
			return fmt.Errorf("unmarshal keys: %w", err)
		}
		var err error
		switch {
		case k.Type == typeClient && client != nil:
			err = attributevalue.UnmarshalMap(item, client)
		case k.Type == typeInvoice && invoices != nil:
			var inv Invoice
			err = attributevalue.UnmarshalMap(item, &inv)
			*invoices = append(*invoices, inv)
		case k.Type == typeLineItem && lines != nil:
			var l LineItem
			err = attributevalue.UnmarshalMap(item, &l)
			*lines = append(*lines, l)
		default:
			err = fmt.Errorf("unexpected %q item %s/%s", k.Type, k.PK, k.SK)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
