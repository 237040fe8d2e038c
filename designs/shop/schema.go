// Package shop restates design seed 001: a basic shop of users, categories,
// brands, products and orders. Users, categories, brands and products each
// live in one constant partition, in KSUID (creation) order; orders live in
// their user's partition and carry their order items. The LSI LSI1 sorts
// users by email and categories and brands by name; GSI1 lists products by
// brand, users by email and orders by status; GSI2 lists products by category.
package shop

import (
	"fmt"
	"strings"
	"time"

	"github.com/ddbharness/ddbharness/designs"
)

// Index names.
const (
	LSI1 = "LSI1" // PK, SKU: user by email, categories and brands by name
	GSI1 = "GSI1" // GSI1PK, GSI1SK: products by brand, users by email, orders by status
	GSI2 = "GSI2" // GSI2PK, GSI2SK: products by category
)

// Schema is the single table: PK/SK, the LSI on SKU (as the doc names it)
// and two GSIs, all projecting every attribute.
var Schema = designs.Schema{PK: "PK", SK: "SK",
	LSIs: []designs.Index{{Name: LSI1, SK: "SKU"}},
	GSIs: []designs.Index{
		{Name: GSI1, PK: "GSI1PK", SK: "GSI1SK"},
		{Name: GSI2, PK: "GSI2PK", SK: "GSI2SK"},
	}}

// MaxOrderItems is the most items one order may hold: placing it writes the
// order, checks the user and reserves stock on one product per item, all in
// one transaction of at most designs.MaxTransactActions actions.
const MaxOrderItems = designs.MaxTransactActions - 2

// MaxPageSize bounds the page size of the listings. The largest item, an
// order with MaxOrderItems items, stays near 10 KB, far below Query's 1 MB.
const MaxPageSize = 100

// maxNameLen bounds names, which go into sort keys (at most 1,024 bytes).
const maxNameLen = 256

// Table is a handle on one shop table.
type Table struct {
	DB   designs.DB
	Name string
}

// Constant partition keys, as the doc writes them: every user, category,
// brand and product shares its type's single partition.
const (
	UsersPK      = "USER"
	CategoriesPK = "CAT"
	BrandsPK     = "BRAND"
	ProductsPK   = "PROD"
)

// Sort key prefixes of the listings. IDs are KSUIDs, so within a prefix the
// sort key order is creation order.
const (
	userPrefix     = "USER#"
	categoryPrefix = "CAT#"
	brandPrefix    = "BRAND#"
	productPrefix  = "PRO#"
	orderPrefix    = "ORDER#"
)

// Key builders.
func UserSK(id string) string         { return userPrefix + id }
func CategorySK(id string) string     { return categoryPrefix + id }
func BrandSK(id string) string        { return brandPrefix + id }
func ProductSK(id string) string      { return productPrefix + id }
func UserOrdersPK(user string) string { return userPrefix + user }
func OrderSK(id string) string        { return orderPrefix + id }

// EmailKey is a user's SKU and GSI1SK. Emails are keyed lower-case, so
// lookups and uniqueness ignore case; the user keeps the email as given.
func EmailKey(email string) string { return "EMAIL#" + NormalizeEmail(email) }

// UserEmailKey is the PK and SK of the item that reserves an email. It has
// its own partition so reservations do not pile onto the USER partition.
func UserEmailKey(email string) string { return "USEREMAIL#" + NormalizeEmail(email) }

// NormalizeEmail is the form emails are keyed and compared in.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// CategoryNameKey and BrandNameKey are the SKU of categories and brands:
// names keep their case, so prefix matches are case-sensitive.
func CategoryNameKey(name string) string { return categoryPrefix + "NAME#" + name }
func BrandNameKey(name string) string    { return brandPrefix + "NAME#" + name }

// Product index keys: GSI1 groups a brand's products by category, GSI2 a
// category's products by brand, each then by the product's creation time.
func ProductGSI1PK(brand string) string { return brandPrefix + brand }
func ProductGSI1SK(category string, created time.Time) string {
	return CategoryPrefix(category) + AtKey(created)
}
func ProductGSI2PK(category string) string { return categoryPrefix + category }
func ProductGSI2SK(brand string, created time.Time) string {
	return BrandPrefix(brand) + AtKey(created)
}

// CategoryPrefix and BrandPrefix start the product GSI sort keys of one
// category or brand. The trailing '#' keeps one ID from matching another
// that it is a prefix of.
func CategoryPrefix(category string) string { return categoryPrefix + category + "#" }
func BrandPrefix(brand string) string       { return brandPrefix + brand + "#" }

// OrderStatusKey is an order's GSI1PK: one partition per status.
func OrderStatusKey(s OrderStatus) string { return orderPrefix + "STATUS#" + string(s) }

// AtKey is a fixed-width time key: "AT#" and ten digits of Unix seconds, as
// the doc's example shows, so that string order is time order until 2286.
func AtKey(t time.Time) string { return fmt.Sprintf("AT#%010d", t.Unix()) }

// maxKeyTime is the last second AtKey keeps fixed-width.
var maxKeyTime = time.Unix(9_999_999_999, 0)

// Item types, stored in the Type attribute.
const (
	typeUser      = "User"
	typeUserEmail = "UserEmail"
	typeCategory  = "Category"
	typeBrand     = "Brand"
	typeProduct   = "Product"
	typeOrder     = "Order"
)

// User is a shopper. Email is unique among users, ignoring case.
// PasswordHash stands for the doc's password: the shop stores only what
// its caller hashed.
type User struct {
	ID           string    `dynamodbav:"UserID"`
	Name         string    `dynamodbav:"Name"`
	Email        string    `dynamodbav:"Email"`
	PasswordHash string    `dynamodbav:"PasswordHash"`
	CreatedAt    time.Time `dynamodbav:"CreatedAt"`
	UpdatedAt    time.Time `dynamodbav:"UpdatedAt"`
}

// Category groups products.
type Category struct {
	ID        string    `dynamodbav:"CategoryID"`
	Name      string    `dynamodbav:"Name"`
	CreatedAt time.Time `dynamodbav:"CreatedAt"`
	UpdatedAt time.Time `dynamodbav:"UpdatedAt"`
}

// Brand makes products.
type Brand struct {
	ID        string    `dynamodbav:"BrandID"`
	Name      string    `dynamodbav:"Name"`
	CreatedAt time.Time `dynamodbav:"CreatedAt"`
	UpdatedAt time.Time `dynamodbav:"UpdatedAt"`
}

// Product belongs to one category and one brand. Money is in integer
// cents; Stock is what orders may still reserve.
type Product struct {
	ID         string    `dynamodbav:"ProductID"`
	Name       string    `dynamodbav:"Name"`
	PriceCents int64     `dynamodbav:"PriceCents"`
	Stock      int       `dynamodbav:"Stock"`
	CategoryID string    `dynamodbav:"CategoryID"`
	BrandID    string    `dynamodbav:"BrandID"`
	CreatedAt  time.Time `dynamodbav:"CreatedAt"`
	UpdatedAt  time.Time `dynamodbav:"UpdatedAt"`
}

// OrderStatus is where an order stands.
type OrderStatus string

// Order statuses. A new order is pending.
const (
	StatusPending   OrderStatus = "PENDING"
	StatusPaid      OrderStatus = "PAID"
	StatusShipped   OrderStatus = "SHIPPED"
	StatusDelivered OrderStatus = "DELIVERED"
	StatusCancelled OrderStatus = "CANCELLED"
)

// Valid reports whether s is one of the known statuses.
func (s OrderStatus) Valid() bool {
	switch s {
	case StatusPending, StatusPaid, StatusShipped, StatusDelivered, StatusCancelled:
		return true
	}
	return false
}

// Order is a user's purchase. Its items travel inside it; TotalCents is the
// sum of their quantity times price.
type Order struct {
	ID         string      `dynamodbav:"OrderID"`
	UserID     string      `dynamodbav:"UserID"`
	Status     OrderStatus `dynamodbav:"Status"`
	TotalCents int64       `dynamodbav:"TotalCents"`
	Items      []OrderItem `dynamodbav:"Items"`
	CreatedAt  time.Time   `dynamodbav:"CreatedAt"`
	UpdatedAt  time.Time   `dynamodbav:"UpdatedAt"`
}

// OrderItem is one product of an order: the doc's ORDER_ITEM, identified by
// its order and product. PriceCents is the unit price when ordered.
type OrderItem struct {
	ProductID  string `dynamodbav:"ProductID"`
	Quantity   int    `dynamodbav:"Quantity"`
	PriceCents int64  `dynamodbav:"PriceCents"`
}

// Page is one page of a listing. Next is empty exactly when nothing follows.
type Page[T any] struct {
	Items []T
	Next  designs.Cursor
}

// Storage items: the domain struct plus keys and type.
type (
	keys struct {
		PK   string `dynamodbav:"PK"`
		SK   string `dynamodbav:"SK"`
		Type string `dynamodbav:"Type"`
	}
	lsi1 struct {
		SKU string `dynamodbav:"SKU"`
	}
	gsi1 struct {
		GSI1PK string `dynamodbav:"GSI1PK"`
		GSI1SK string `dynamodbav:"GSI1SK"`
	}
	gsi2 struct {
		GSI2PK string `dynamodbav:"GSI2PK"`
		GSI2SK string `dynamodbav:"GSI2SK"`
	}
	userItem struct {
		keys
		lsi1
		gsi1
		User
	}
	userEmailItem struct {
		keys
		UserID string `dynamodbav:"UserID"`
	}
	categoryItem struct {
		keys
		lsi1
		Category
	}
	brandItem struct {
		keys
		lsi1
		Brand
	}
	productItem struct {
		keys
		gsi1
		gsi2
		Product
	}
	// orderRecord is the stored order; "orderItem" would read as OrderItem.
	orderRecord struct {
		keys
		gsi1
		Order
	}
)

func newUserItem(u User) userItem {
	email := EmailKey(u.Email)
	return userItem{keys{UsersPK, UserSK(u.ID), typeUser}, lsi1{email}, gsi1{UsersPK, email}, u}
}

func newUserEmailItem(u User) userEmailItem {
	k := UserEmailKey(u.Email)
	return userEmailItem{keys{k, k, typeUserEmail}, u.ID}
}

func newCategoryItem(c Category) categoryItem {
	return categoryItem{keys{CategoriesPK, CategorySK(c.ID), typeCategory}, lsi1{CategoryNameKey(c.Name)}, c}
}

func newBrandItem(b Brand) brandItem {
	return brandItem{keys{BrandsPK, BrandSK(b.ID), typeBrand}, lsi1{BrandNameKey(b.Name)}, b}
}

func newProductItem(p Product) productItem {
	return productItem{
		keys{ProductsPK, ProductSK(p.ID), typeProduct},
		gsi1{ProductGSI1PK(p.BrandID), ProductGSI1SK(p.CategoryID, p.CreatedAt)},
		gsi2{ProductGSI2PK(p.CategoryID), ProductGSI2SK(p.BrandID, p.CreatedAt)},
		p,
	}
}

func newOrderRecord(o Order) orderRecord {
	return orderRecord{
		keys{UserOrdersPK(o.UserID), OrderSK(o.ID), typeOrder},
		gsi1{OrderStatusKey(o.Status), AtKey(o.UpdatedAt)},
		o,
	}
}

// checkEntity validates what every entity shares: the ID is a KSUID of the
// creation second (so sort key order is creation order), and both times fit
// the fixed-width time keys, updated no earlier than created.
func checkEntity(id string, created, updated time.Time) error {
	idTime, err := designs.IDTime(id)
	if err != nil {
		return err
	}
	switch {
	case !keyTime(created) || !keyTime(updated):
		return fmt.Errorf("%w: times must lie between 1970 and 2286", designs.ErrInvalidInput)
	case !idTime.Equal(created.Truncate(time.Second)):
		return fmt.Errorf("%w: ID %s is not a KSUID of its creation time %s", designs.ErrInvalidInput, id, created.Format(time.RFC3339))
	case updated.Before(created):
		return fmt.Errorf("%w: updated before created", designs.ErrInvalidInput)
	}
	return nil
}

// checkName accepts a name of 1 to maxNameLen bytes: names go into sort
// keys, which DynamoDB bounds at 1,024 bytes.
func checkName(name string) error {
	if name == "" || len(name) > maxNameLen {
		return fmt.Errorf("%w: name must have 1 to %d bytes", designs.ErrInvalidInput, maxNameLen)
	}
	return nil
}

// keyTime reports whether AtKey keeps t fixed-width.
func keyTime(t time.Time) bool { return t.Unix() >= 0 && !t.After(maxKeyTime) }
