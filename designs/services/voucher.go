package services

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// IssueVoucher is AP-09 (main table, UpdateItem): it attaches v to the
// service and sets the sparse keys AVPK (the program) and AVSK (issue stamp
// and service ID), which puts the service in AwaitingVoucher. A service
// carries one voucher in its life: a second issue, even after fulfilment, is
// designs.ErrAlreadyExists; an unknown service is designs.ErrNotFound (the
// failed condition returns the old item, if any, which tells the two apart
// without a second read). Returns the stored service.
func (t Table) IssueVoucher(ctx context.Context, k ServiceKey, v Voucher) (Service, error) {
	if err := k.check(); err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", IssueVoucherID, k, err)
	}
	if v.Code == "" || v.Program == "" || v.IssuedAt.IsZero() || v.AmountCents < 0 || v.FulfilledAt != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w: a voucher needs a code, a program, an issue time and no fulfilment yet",
			IssueVoucherID, k, designs.ErrInvalidInput)
	}
	v.IssuedAt = v.IssuedAt.UTC()
	update := expression.Set(expression.Name("Voucher"), expression.Value(v)).
		Set(expression.Name(attrAwaitingPK), expression.Value(ProgramPK(v.Program))).
		Set(expression.Name(attrAwaitingSK), expression.Value(AwaitingSK(v.IssuedAt, k.ID)))
	noVoucher := Schema.IsStored().And(expression.AttributeNotExists(expression.Name("Voucher")))
	s, err := t.update(ctx, k, update, noVoucher)
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		err = designs.ErrNotFound
		if ccf.Item != nil {
			err = designs.ErrAlreadyExists
		}
	}
	if err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", IssueVoucherID, k, err)
	}
	return s, nil
}

// FulfilVoucher is AP-10 (main table, UpdateItem): it stamps the voucher
// fulfilled at the given time and REMOVEs the sparse keys, which takes the
// service out of AwaitingVoucher. Only an awaiting voucher can be fulfilled
// (condition: AVPK exists): an unknown service, one without a voucher, or
// one already fulfilled is designs.ErrNotFound. Returns the stored service.
func (t Table) FulfilVoucher(ctx context.Context, k ServiceKey, at time.Time) (Service, error) {
	if err := k.check(); err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", FulfilVoucherID, k, err)
	}
	if at.IsZero() {
		return Service{}, fmt.Errorf("%s: service %s: %w: a fulfilment time is required", FulfilVoucherID, k, designs.ErrInvalidInput)
	}
	update := expression.Set(expression.Name("Voucher.FulfilledAt"), expression.Value(at.UTC())).
		Remove(expression.Name(attrAwaitingPK)).
		Remove(expression.Name(attrAwaitingSK))
	awaiting := expression.AttributeExists(expression.Name(attrAwaitingPK))
	s, err := t.update(ctx, k, update, awaiting)
	if designs.IsConditionFailed(err) {
		err = designs.ErrNotFound
	}
	if err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", FulfilVoucherID, k, err)
	}
	return s, nil
}

// ListAwaitingVouchers is AP-11 (AwaitingVoucher, Query): the program's
// services whose voucher is issued and not yet fulfilled, oldest issue
// first, n per page; pass Next as after for the page that follows. The index
// is sparse: only items carrying AVPK are in it, so the read never touches a
// fulfilled or voucher-less service. Eventually consistent: a fulfilment a
// moment ago may still show.
func (t Table) ListAwaitingVouchers(ctx context.Context, program string, n int, after designs.Cursor) (Page, error) {
	if program == "" {
		return Page{}, fmt.Errorf("%s: %w: program is required", ListAwaitingVouchersID, designs.ErrInvalidInput)
	}
	pk := ProgramPK(program)
	return t.list(ctx, listing{
		id: ListAwaitingVouchersID, index: AwaitingVoucher, pkAttr: attrAwaitingPK, pk: pk,
		key: expression.Key(attrAwaitingPK).Equal(expression.Value(pk)),
	}, n, after)
}
