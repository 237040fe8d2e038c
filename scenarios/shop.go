package scenarios

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// ShopBrowse: shoppers browse the catalogue, sign in, check their orders
// and buy; popular products and active shoppers take most of the traffic.
var ShopBrowse = workload.Scenario{
	Name:     "shop/browse",
	About:    "shoppers browse, sign in, check orders and buy; popular products and active shoppers dominate",
	Design:   shop.Design,
	Pool:     2000,
	Pacer:    vegeta.ConstantPacer{Freq: 300, Per: time.Second},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: shop.GetProductID, Weight: 25, Keys: workload.Zipf{S: 1.2}},
		{Pattern: shop.ListProductsByCategoryID, Weight: 10, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListProductsByBrandID, Weight: 6, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListProductsByBrandCatID, Weight: 3, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListProductsByCatBrandID, Weight: 3, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListProductsID, Weight: 2},
		{Pattern: shop.GetCategoryID, Weight: 4, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListCategoriesID, Weight: 2},
		{Pattern: shop.ListCategoriesByNamePrefixID, Weight: 1},
		{Pattern: shop.GetBrandID, Weight: 3, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListBrandsID, Weight: 1},
		{Pattern: shop.ListBrandsByNamePrefixID, Weight: 1},
		{Pattern: shop.GetUserID, Weight: 8, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.GetUserByEmailID, Weight: 5, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListUsersID, Weight: 1},
		{Pattern: shop.ListUsersCreatedSinceID, Weight: 1},
		{Pattern: shop.ListUsersByEmailPrefixID, Weight: 1},
		{Pattern: shop.GetOrderID, Weight: 4, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListUserOrdersID, Weight: 5, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.ListOrdersByStatusID, Weight: 2},
		{Pattern: shop.CreateUserID, Weight: 2},
		{Pattern: shop.PlaceOrderID, Weight: 5, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.UpdateOrderStatusID, Weight: 3, Keys: workload.Zipf{S: 1.1}},
		{Pattern: shop.CreateProductID, Weight: 1},
	},
	Driver: newShopDriver,
}

// ShopConstantPartitions: the design's own risk. Users, products,
// categories and brands each live under one constant partition key (USER,
// PROD, CAT, BRAND), so even uniformly spread keys all land on four
// partitions; the rate ramps up to show where each would throttle.
var ShopConstantPartitions = workload.Scenario{
	Name:     "shop/constant-partitions",
	About:    "uniform reads and writes of users, products, categories and brands: all land on the USER, PROD, CAT and BRAND partitions",
	Design:   shop.Design,
	Pool:     2000,
	Pacer:    vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: 100, Per: time.Second}, Slope: 10},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: shop.GetUserID, Weight: 20},
		{Pattern: shop.GetProductID, Weight: 20},
		{Pattern: shop.GetCategoryID, Weight: 10},
		{Pattern: shop.GetBrandID, Weight: 10},
		{Pattern: shop.ListProductsID, Weight: 5},
		{Pattern: shop.ListUsersID, Weight: 5},
		{Pattern: shop.CreateUserID, Weight: 10},
		{Pattern: shop.CreateProductID, Weight: 10},
		{Pattern: shop.CreateCategoryID, Weight: 5},
		{Pattern: shop.CreateBrandID, Weight: 5},
	},
	Driver: newShopDriver,
}

// shopDriver calls the shop patterns on a seeded shop: key k is the k-th
// user and the k-th product, with the product's brand and category; the
// k-th category and brand (modulo their count) for the patterns that take
// one alone. The pool never changes after Seed.
type shopDriver struct {
	t    shop.Table
	seed int64
	pool fixtures.SeededShop
}

func newShopDriver(db designs.DB, table string, seed int64) workload.Driver {
	return &shopDriver{t: shop.Table{DB: db, Name: table}, seed: seed}
}

// Seed writes the catalogue, n products and n users with their orders.
func (d *shopDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	pool, err := fixtures.NewShop(d.seed).Seed(ctx, fixtures.NewLoader(d.t.DB, d.t.Name, shop.Schema), n, progress)
	d.pool = pool
	return err
}

// shopPageSize is the page a shopper's screen asks for.
const shopPageSize = 25

var orderStatuses = []shop.OrderStatus{shop.StatusPending, shop.StatusPaid, shop.StatusShipped, shop.StatusDelivered, shop.StatusCancelled}

// Call runs p around the key-th user and product. Orders take stock from
// the key-th product and from popular ones (Zipf), so a long run drains
// them: shop.ErrOutOfStock is then an outcome, not a driver fault.
func (d *shopDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	s := d.pool
	if len(s.Users) == 0 {
		return ErrNotSeeded
	}
	key %= len(s.Users)
	u, prod := s.Users[key], s.Products[key]
	cat, brand := s.Categories[key%len(s.Categories)], s.Brands[key%len(s.Brands)]
	var err error
	switch p {
	case shop.GetUserID:
		_, err = d.t.GetUser(ctx, u.ID)
	case shop.GetUserByEmailID:
		_, err = d.t.GetUserByEmail(ctx, u.Email)
	case shop.ListUsersID:
		_, err = d.t.ListUsers(ctx, shopPageSize, "")
	case shop.ListUsersCreatedSinceID:
		_, err = d.t.ListUsersCreatedSince(ctx, u.CreatedAt, shopPageSize, "")
	case shop.ListUsersByEmailPrefixID:
		_, err = d.t.ListUsersByEmailPrefix(ctx, prefix(u.Email, 3), shopPageSize, "")
	case shop.GetCategoryID:
		_, err = d.t.GetCategory(ctx, cat.ID)
	case shop.ListCategoriesID:
		_, err = d.t.ListCategories(ctx, shopPageSize, "")
	case shop.ListCategoriesByNamePrefixID:
		_, err = d.t.ListCategoriesByNamePrefix(ctx, prefix(cat.Name, 2), shopPageSize, "")
	case shop.GetBrandID:
		_, err = d.t.GetBrand(ctx, brand.ID)
	case shop.ListBrandsID:
		_, err = d.t.ListBrands(ctx, shopPageSize, "")
	case shop.ListBrandsByNamePrefixID:
		_, err = d.t.ListBrandsByNamePrefix(ctx, prefix(brand.Name, 2), shopPageSize, "")
	case shop.GetProductID:
		_, err = d.t.GetProduct(ctx, prod.ID)
	case shop.ListProductsID:
		_, err = d.t.ListProducts(ctx, shopPageSize, "")
	case shop.ListProductsByBrandID:
		_, err = d.t.ListProductsByBrand(ctx, prod.BrandID, shopPageSize, "")
	case shop.ListProductsByBrandCatID:
		_, err = d.t.ListProductsByBrandAndCategory(ctx, prod.BrandID, prod.CategoryID, shopPageSize, "")
	case shop.ListProductsByCategoryID:
		_, err = d.t.ListProductsByCategory(ctx, prod.CategoryID, shopPageSize, "")
	case shop.ListProductsByCatBrandID:
		_, err = d.t.ListProductsByCategoryAndBrand(ctx, prod.CategoryID, prod.BrandID, shopPageSize, "")
	case shop.GetOrderID:
		orders := s.Orders[key]
		_, err = d.t.GetOrder(ctx, u.ID, orders[r.IntN(len(orders))].ID)
	case shop.ListUserOrdersID:
		_, err = d.t.ListUserOrders(ctx, u.ID, 10, "")
	case shop.ListOrdersByStatusID:
		_, err = d.t.ListOrdersByStatus(ctx, orderStatuses[r.IntN(len(orderStatuses))], fixtures.Epoch, shopPageSize, "")
	case shop.UpdateOrderStatusID:
		orders := s.Orders[key]
		_, err = d.t.UpdateOrderStatus(ctx, u.ID, orders[r.IntN(len(orders))].ID, orderStatuses[1+r.IntN(len(orderStatuses)-1)], time.Now())
	default:
		err = d.write(ctx, p, key, r)
	}
	return err
}

// write runs the patterns that create entities, fresh ones each call.
func (d *shopDriver) write(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	s := d.pool
	f := fixtures.Live[fixtures.Shop](r, time.Now())
	switch p {
	case shop.CreateUserID:
		return d.t.CreateUser(ctx, f.User())
	case shop.CreateCategoryID:
		return d.t.CreateCategory(ctx, f.Category())
	case shop.CreateBrandID:
		return d.t.CreateBrand(ctx, f.Brand())
	case shop.CreateProductID:
		return d.t.CreateProduct(ctx, f.Product(s.Brands[key%len(s.Brands)].ID, s.Categories[key%len(s.Categories)].ID))
	case shop.PlaceOrderID:
		products := []shop.Product{s.Products[key]}
		for range r.IntN(3) {
			pr := s.Products[workload.Zipf{S: 1.1}.Pick(r, len(s.Products))]
			if !slices.ContainsFunc(products, func(q shop.Product) bool { return q.ID == pr.ID }) {
				products = append(products, pr)
			}
		}
		_, err := d.t.PlaceOrder(ctx, f.Order(s.Users[key].ID, products...))
		return err
	}
	return unknown(shop.Design.Name, p)
}
