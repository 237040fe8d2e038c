package services

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// RecordService is AP-01 (main table, PutItem): the service enters the
// client's history and the report of its year. A service with a voucher is
// refused (designs.ErrInvalidInput): vouchers come only through
// IssueVoucher, which owns the sparse keys. The same key recorded twice:
// designs.ErrAlreadyExists.
func (t Table) RecordService(ctx context.Context, s Service) error {
	if err := s.Key().check(); err != nil {
		return fmt.Errorf("%s: service %s: %w", RecordServiceID, s.Key(), err)
	}
	if err := s.Details.check(); err != nil {
		return fmt.Errorf("%s: service %s: %w", RecordServiceID, s.Key(), err)
	}
	if s.Voucher != nil {
		return fmt.Errorf("%s: service %s: %w: issue vouchers with %s", RecordServiceID, s.Key(), designs.ErrInvalidInput, IssueVoucherID)
	}
	if err := designs.PutNew(ctx, t.DB, t.Name, Schema, newServiceItem(s, 1)); err != nil {
		return fmt.Errorf("%s: service %s: %w", RecordServiceID, s.Key(), err)
	}
	return nil
}

// GetService is AP-02 (main table, GetItem, strongly consistent, so an edit
// screen opened right after a write shows it). Unknown key:
// designs.ErrNotFound.
func (t Table) GetService(ctx context.Context, k ServiceKey) (Service, error) {
	if err := k.check(); err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", GetServiceID, k, err)
	}
	item, err := t.getItem(ctx, k)
	if err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", GetServiceID, k, err)
	}
	return item.Service, nil
}

// UpdateService is AP-04 (main table, UpdateItem): it replaces the service's
// details in place and returns the stored service. The keys do not change,
// so the service keeps its place in the history and the report, and its
// voucher. To change the date, use RescheduleService. Unknown key:
// designs.ErrNotFound.
func (t Table) UpdateService(ctx context.Context, k ServiceKey, d Details) (Service, error) {
	if err := k.check(); err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", UpdateServiceID, k, err)
	}
	if err := d.check(); err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", UpdateServiceID, k, err)
	}
	update := expression.Set(expression.Name("Kind"), expression.Value(d.Kind)).
		Set(expression.Name("Units"), expression.Value(d.Units)).
		Set(expression.Name("Notes"), expression.Value(d.Notes))
	s, err := t.update(ctx, k, update, Schema.IsStored())
	if designs.IsConditionFailed(err) {
		err = designs.ErrNotFound
	}
	if err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", UpdateServiceID, k, err)
	}
	return s, nil
}

// RescheduleService is AP-05 (main table, TransactWriteItems): it moves a
// service to another date. The date leads both sort keys, so the item is
// deleted and put again in one transaction; it moves in the client's
// history and in ByYear (to another year partition if the year changes),
// and an awaiting voucher keeps it in AwaitingVoucher. The item is read
// first and the delete holds only if its version is still the one read, so
// a concurrent voucher change or edit is never lost: designs.ErrConflict
// (read again and retry). Unknown key, or a service deleted or moved since
// the read: designs.ErrNotFound. The same date writes nothing. Returns the moved service; on any error nothing is written.
func (t Table) RescheduleService(ctx context.Context, k ServiceKey, date string) (Service, error) {
	if err := k.check(); err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", RescheduleServiceID, k, err)
	}
	if err := checkDate(date); err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", RescheduleServiceID, k, err)
	}
	old, err := t.getItem(ctx, k)
	if err != nil {
		return Service{}, fmt.Errorf("%s: service %s: %w", RescheduleServiceID, k, err)
	}
	if date == k.Date {
		return old.Service, nil
	}
	moved := old.Service
	moved.Date = date
	sameVersion := expression.Name("Version").Equal(expression.Value(old.Version))

	tx := designs.Tx{Table: t.Name}
	tx.Delete(Schema.Key(old.PK, old.SK), sameVersion, designs.AbsentOr(designs.ErrNotFound, designs.ErrConflict))
	tx.Put(newServiceItem(moved, old.Version+1), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	if err := tx.Write(ctx, t.DB); err != nil {
		return Service{}, fmt.Errorf("%s: service %s to %s: %w", RescheduleServiceID, k, date, err)
	}
	return moved, nil
}

// DeleteService is AP-06 (main table, DeleteItem): index entries are derived
// from the item, so the service leaves the report and, if its voucher was
// awaiting, AwaitingVoucher too. Unknown key: designs.ErrNotFound.
func (t Table) DeleteService(ctx context.Context, k ServiceKey) error {
	if err := k.check(); err != nil {
		return fmt.Errorf("%s: service %s: %w", DeleteServiceID, k, err)
	}
	if err := designs.DeleteStored(ctx, t.DB, t.Name, Schema, k.key()); err != nil {
		return fmt.Errorf("%s: service %s: %w", DeleteServiceID, k, err)
	}
	return nil
}

// getItem reads a service item, strongly consistent.
func (t Table) getItem(ctx context.Context, k ServiceKey) (serviceItem, error) {
	return designs.Get[serviceItem](ctx, t.DB, t.Name, k.key(), true)
}

// update applies update to the service at k if cond holds, counts the write
// in Version, and returns the service as stored afterwards. A failed
// condition comes back as the SDK's ConditionalCheckFailedException, with
// the item as it was (if any) in its Item.
func (t Table) update(ctx context.Context, k ServiceKey, update expression.UpdateBuilder, cond expression.ConditionBuilder) (Service, error) {
	update = update.Add(expression.Name("Version"), expression.Value(1))
	return designs.Update[Service](ctx, t.DB, t.Name, k.key(), update, cond)
}
