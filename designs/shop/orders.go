package shop

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// GetOrder is AP-18 (main table, GetItem): PK USER#<user>, SK
// ORDER#<order>, the order with its items. Unknown order, or an order of
// another user: designs.ErrNotFound.
func (t Table) GetOrder(ctx context.Context, userID, orderID string) (Order, error) {
	return getItem[Order](ctx, t, GetOrderID, UserOrdersPK(userID), OrderSK(orderID))
}

// ListUserOrders is AP-19 (main table, Query): PK USER#<user> and SK
// beginning with ORDER#, oldest order first (IDs are KSUIDs), each with its
// items.
func (t Table) ListUserOrders(ctx context.Context, userID string, size int, after designs.Cursor) (Page[Order], error) {
	key := partition(Schema.PK, UserOrdersPK(userID), Schema.SK, orderPrefix)
	return queryPage[Order](ctx, t, ListUserOrdersID, designs.PageQuery{Key: key, Size: size, After: after})
}

// ListOrdersByStatus is AP-20 (GSI1, Query): GSI1PK ORDER#STATUS#<status>
// and GSI1SK >= AT#<since>, so orders whose last change was at or after
// since's second, least recently changed first. GSI reads are eventually
// consistent.
func (t Table) ListOrdersByStatus(ctx context.Context, status OrderStatus, since time.Time, size int, after designs.Cursor) (Page[Order], error) {
	if !status.Valid() || !keyTime(since) {
		return Page[Order]{}, fmt.Errorf("%s: status %q since %v: %w", ListOrdersByStatusID, status, since, designs.ErrInvalidInput)
	}
	key := expression.Key("GSI1PK").Equal(expression.Value(OrderStatusKey(status))).
		And(expression.Key("GSI1SK").GreaterThanEqual(expression.Value(AtKey(since))))
	return queryPage[Order](ctx, t, ListOrdersByStatusID, designs.PageQuery{Index: GSI1, Key: key, Size: size, After: after})
}

// PlaceOrder is AP-25 (main table, TransactWriteItems): one transaction
// puts the order (pending, updated when created, its total computed from
// its items), checks that the user exists and takes each item's quantity
// from its product's stock. Outcomes, with nothing written: designs.ErrNotFound
// (no such user or product), ErrOutOfStock (a product holds less
// than its quantity), designs.ErrAlreadyExists (order ID taken),
// designs.ErrTooManyActions (more than MaxOrderItems items, refused before
// any call). Returns the order as stored.
func (t Table) PlaceOrder(ctx context.Context, o Order) (Order, error) {
	o.Status, o.UpdatedAt, o.TotalCents = StatusPending, o.CreatedAt, 0
	for _, it := range o.Items {
		o.TotalCents += int64(it.Quantity) * it.PriceCents
	}
	if err := checkOrder(o); err != nil {
		return Order{}, fmt.Errorf("%s: order %s: %w", PlaceOrderID, o.ID, err)
	}
	tx := designs.Tx{Table: t.Name}
	tx.Put(newOrderRecord(o), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	tx.Check(Schema.Key(UsersPK, UserSK(o.UserID)), Schema.IsStored(), designs.Because(fmt.Errorf("user %s: %w", o.UserID, designs.ErrNotFound)))
	stock := expression.Name("Stock")
	for _, it := range o.Items {
		take := expression.Set(stock, expression.Minus(stock, expression.Value(it.Quantity))).
			Set(expression.Name("UpdatedAt"), expression.Value(o.CreatedAt))
		enough := Schema.IsStored().And(stock.GreaterThanEqual(expression.Value(it.Quantity)))
		// The old image tells a missing product from a short stock.
		tx.Update(Schema.Key(ProductsPK, ProductSK(it.ProductID)), take, enough, designs.AbsentOr(
			fmt.Errorf("product %s: %w", it.ProductID, designs.ErrNotFound),
			fmt.Errorf("product %s: %w", it.ProductID, ErrOutOfStock)))
	}
	if err := tx.Write(ctx, t.DB); err != nil {
		return Order{}, fmt.Errorf("%s: order %s: %w", PlaceOrderID, o.ID, err)
	}
	return o, nil
}

func checkOrder(o Order) error {
	if err := designs.CheckTransactSize(2 + len(o.Items)); err != nil {
		return err
	}
	if len(o.Items) == 0 {
		return fmt.Errorf("%w: an order needs at least one item", designs.ErrInvalidInput)
	}
	seen := map[string]bool{}
	for i, it := range o.Items {
		switch {
		case it.Quantity < 1 || it.PriceCents < 0:
			return fmt.Errorf("%w: item %d: quantity must be positive, price not negative", designs.ErrInvalidInput, i+1)
		case seen[it.ProductID]:
			return fmt.Errorf("%w: item %d: product %s listed twice", designs.ErrInvalidInput, i+1, it.ProductID)
		}
		if _, err := designs.IDTime(it.ProductID); err != nil {
			return fmt.Errorf("item %d: %w", i+1, err)
		}
		seen[it.ProductID] = true
	}
	if _, err := designs.IDTime(o.UserID); err != nil {
		return fmt.Errorf("user: %w", err)
	}
	return checkEntity(o.ID, o.CreatedAt, o.UpdatedAt)
}

// UpdateOrderStatus is AP-26 (main table, UpdateItem): it sets the order's
// status and UpdatedAt, and with them GSI1PK and GSI1SK, so the order leaves
// its old status's GSI1 partition and joins the new one. Returns the
// updated order. Unknown order: designs.ErrNotFound, and nothing is written.
func (t Table) UpdateOrderStatus(ctx context.Context, userID, orderID string, status OrderStatus, at time.Time) (Order, error) {
	if !status.Valid() || !keyTime(at) {
		return Order{}, fmt.Errorf("%s: order %s: status %q at %v: %w", UpdateOrderStatusID, orderID, status, at, designs.ErrInvalidInput)
	}
	update := expression.Set(expression.Name("Status"), expression.Value(status)).
		Set(expression.Name("UpdatedAt"), expression.Value(at)).
		Set(expression.Name("GSI1PK"), expression.Value(OrderStatusKey(status))).
		Set(expression.Name("GSI1SK"), expression.Value(AtKey(at)))
	o, err := designs.Update[Order](ctx, t.DB, t.Name, Schema.Key(UserOrdersPK(userID), OrderSK(orderID)), update, Schema.IsStored())
	if designs.IsConditionFailed(err) {
		return Order{}, fmt.Errorf("%s: order %s of user %s: %w", UpdateOrderStatusID, orderID, userID, designs.ErrNotFound)
	}
	if err != nil {
		return Order{}, fmt.Errorf("%s: order %s: %w", UpdateOrderStatusID, orderID, err)
	}
	return o, nil
}
