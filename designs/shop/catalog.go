package shop

import "github.com/ddbharness/ddbharness/designs"

// Pattern IDs, in catalog order: AP-01 to AP-20 are the rows of the doc's
// access-pattern table in its order; the writes that feed them follow.
// Specs carry them as labels and scenarios name them, so a typo does not
// compile.
const (
	// GetUserID is the catalog ID of GetUser.
	GetUserID designs.PatternID = "AP-01"
	// GetUserByEmailID is the catalog ID of GetUserByEmail.
	GetUserByEmailID designs.PatternID = "AP-02"
	// ListUsersID is the catalog ID of ListUsers.
	ListUsersID designs.PatternID = "AP-03"
	// ListUsersCreatedSinceID is the catalog ID of ListUsersCreatedSince.
	ListUsersCreatedSinceID designs.PatternID = "AP-04"
	// ListUsersByEmailPrefixID is the catalog ID of ListUsersByEmailPrefix.
	ListUsersByEmailPrefixID designs.PatternID = "AP-05"
	// GetCategoryID is the catalog ID of GetCategory.
	GetCategoryID designs.PatternID = "AP-06"
	// ListCategoriesID is the catalog ID of ListCategories.
	ListCategoriesID designs.PatternID = "AP-07"
	// ListCategoriesByNamePrefixID is the catalog ID of ListCategoriesByNamePrefix.
	ListCategoriesByNamePrefixID designs.PatternID = "AP-08"
	// GetBrandID is the catalog ID of GetBrand.
	GetBrandID designs.PatternID = "AP-09"
	// ListBrandsID is the catalog ID of ListBrands.
	ListBrandsID designs.PatternID = "AP-10"
	// ListBrandsByNamePrefixID is the catalog ID of ListBrandsByNamePrefix.
	ListBrandsByNamePrefixID designs.PatternID = "AP-11"
	// GetProductID is the catalog ID of GetProduct.
	GetProductID designs.PatternID = "AP-12"
	// ListProductsID is the catalog ID of ListProducts.
	ListProductsID designs.PatternID = "AP-13"
	// ListProductsByBrandID is the catalog ID of ListProductsByBrand.
	ListProductsByBrandID designs.PatternID = "AP-14"
	// ListProductsByBrandCatID is the catalog ID of ListProductsByBrandAndCategory.
	ListProductsByBrandCatID designs.PatternID = "AP-15"
	// ListProductsByCategoryID is the catalog ID of ListProductsByCategory.
	ListProductsByCategoryID designs.PatternID = "AP-16"
	// ListProductsByCatBrandID is the catalog ID of ListProductsByCategoryAndBrand.
	ListProductsByCatBrandID designs.PatternID = "AP-17"
	// GetOrderID is the catalog ID of GetOrder.
	GetOrderID designs.PatternID = "AP-18"
	// ListUserOrdersID is the catalog ID of ListUserOrders.
	ListUserOrdersID designs.PatternID = "AP-19"
	// ListOrdersByStatusID is the catalog ID of ListOrdersByStatus.
	ListOrdersByStatusID designs.PatternID = "AP-20"
	// CreateUserID is the catalog ID of CreateUser.
	CreateUserID designs.PatternID = "AP-21"
	// CreateCategoryID is the catalog ID of CreateCategory.
	CreateCategoryID designs.PatternID = "AP-22"
	// CreateBrandID is the catalog ID of CreateBrand.
	CreateBrandID designs.PatternID = "AP-23"
	// CreateProductID is the catalog ID of CreateProduct.
	CreateProductID designs.PatternID = "AP-24"
	// PlaceOrderID is the catalog ID of PlaceOrder.
	PlaceOrderID designs.PatternID = "AP-25"
	// UpdateOrderStatusID is the catalog ID of UpdateOrderStatus.
	UpdateOrderStatusID designs.PatternID = "AP-26"
)

// Design is the shop catalog: the 20 reads of the doc's access-pattern
// table, in its order, then the writes that make them meaningful.
var Design = designs.Design{
	Name:    "shop",
	Summary: "users, categories, brands and products in constant partitions (LSI by email/name), orders with their items per user, GSIs by brand, category and order status",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: GetUserID, Name: "get a user by id", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "one user by ID from the USER partition"},
		{ID: GetUserByEmailID, Name: "get a user by email", Op: designs.Query, Index: LSI1, MaxItems: 1,
			Doc: "the one user whose SKU is EMAIL#<email> in the USER partition; emails are unique"},
		{ID: ListUsersID, Name: "list users", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "every user, oldest first, a page at a time"},
		{ID: ListUsersCreatedSinceID, Name: "list users filter by created_at", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "users created at or after a time, oldest first: SK >= USER#<smallest KSUID of that second>"},
		{ID: ListUsersByEmailPrefixID, Name: "list users filter by email-prefix", Op: designs.Query, Index: GSI1, Pages: true,
			Doc: "users whose email starts with a prefix, in email order"},
		{ID: GetCategoryID, Name: "get a category by id", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "one category by ID from the CAT partition"},
		{ID: ListCategoriesID, Name: "list categories", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "every category, oldest first, a page at a time"},
		{ID: ListCategoriesByNamePrefixID, Name: "list categories filter by name-prefix", Op: designs.Query, Index: LSI1, Pages: true,
			Doc: "categories whose name starts with a prefix, in name order"},
		{ID: GetBrandID, Name: "get a brand by id", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "one brand by ID from the BRAND partition"},
		{ID: ListBrandsID, Name: "list brands", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "every brand, oldest first, a page at a time"},
		{ID: ListBrandsByNamePrefixID, Name: "list brands filter by name-prefix", Op: designs.Query, Index: LSI1, Pages: true,
			Doc: "brands whose name starts with a prefix, in name order"},
		{ID: GetProductID, Name: "get a product by id", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "one product by ID from the PROD partition"},
		{ID: ListProductsID, Name: "list products", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "every product, oldest first, a page at a time"},
		{ID: ListProductsByBrandID, Name: "list products by brand", Op: designs.Query, Index: GSI1, Pages: true,
			Doc: "a brand's products, grouped by category (oldest category first), oldest product first within each"},
		{ID: ListProductsByBrandCatID, Name: "list products by brand and category", Op: designs.Query, Index: GSI1, Pages: true,
			Doc: "the products of one brand in one category, oldest first"},
		{ID: ListProductsByCategoryID, Name: "list products by category", Op: designs.Query, Index: GSI2, Pages: true,
			Doc: "a category's products, grouped by brand (oldest brand first), oldest product first within each"},
		{ID: ListProductsByCatBrandID, Name: "list products by category and brand", Op: designs.Query, Index: GSI2, Pages: true,
			Doc: "the products of one category of one brand, oldest first"},
		{ID: GetOrderID, Name: "get user's order by id", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "one order of a user, with its items"},
		{ID: ListUserOrdersID, Name: "list user's orders", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "a user's orders with their items, oldest first"},
		{ID: ListOrdersByStatusID, Name: "list orders by status", Op: designs.Query, Index: GSI1, Pages: true,
			Doc: "orders in one status changed at or after a time, least recently changed first"},
		{ID: CreateUserID, Name: "create user", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 2,
			Doc: "write the user and the item reserving its email together; both must be new"},
		{ID: CreateCategoryID, Name: "create category", Op: designs.PutItem, Index: designs.MainTable,
			Doc: "write a new category"},
		{ID: CreateBrandID, Name: "create brand", Op: designs.PutItem, Index: designs.MainTable,
			Doc: "write a new brand"},
		{ID: CreateProductID, Name: "create product", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 3,
			Doc: "write a new product, checking in the same transaction that its brand and category exist"},
		{ID: PlaceOrderID, Name: "place order", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 2 + MaxOrderItems,
			Doc: "write a pending order with its items, check the user, take each item's quantity from product stock, all or nothing"},
		{ID: UpdateOrderStatusID, Name: "update order status", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "set an order's status and update time, moving it between GSI1 status partitions"},
	},
}
