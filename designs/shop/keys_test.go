package shop_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs/shop"
)

var _ = Describe("key builders", Label("unit"), func() {
	at := time.Date(2024, time.June, 27, 7, 39, 22, 500, time.UTC) // Unix 1719473962, as in the doc

	DescribeTable("build the keys of the doc's key charts",
		func(got, want string) { Expect(got).To(Equal(want)) },
		Entry("a user's sort key", shop.UserSK("u1"), "USER#u1"),
		Entry("a user's email key ignores case and spaces", shop.EmailKey(" Test01@Gmail.com "), "EMAIL#test01@gmail.com"),
		Entry("an email reservation", shop.UserEmailKey("Test01@Gmail.com"), "USEREMAIL#test01@gmail.com"),
		Entry("a category's sort key", shop.CategorySK("c1"), "CAT#c1"),
		Entry("a category's name key keeps case", shop.CategoryNameKey("CatX"), "CAT#NAME#CatX"),
		Entry("a brand's sort key", shop.BrandSK("b1"), "BRAND#b1"),
		Entry("a brand's name key keeps case", shop.BrandNameKey("BrY"), "BRAND#NAME#BrY"),
		Entry("a product's sort key", shop.ProductSK("p1"), "PRO#p1"),
		Entry("a product's GSI1 partition", shop.ProductGSI1PK("b1"), "BRAND#b1"),
		Entry("a product's GSI1 sort key", shop.ProductGSI1SK("c1", at), "CAT#c1#AT#1719473962"),
		Entry("a product's GSI2 partition", shop.ProductGSI2PK("c1"), "CAT#c1"),
		Entry("a product's GSI2 sort key", shop.ProductGSI2SK("b1", at), "BRAND#b1#AT#1719473962"),
		Entry("an order's partition", shop.UserOrdersPK("u1"), "USER#u1"),
		Entry("an order's sort key", shop.OrderSK("o1"), "ORDER#o1"),
		Entry("an order's status partition", shop.OrderStatusKey(shop.StatusDelivered), "ORDER#STATUS#DELIVERED"),
		Entry("a time key pads to ten digits", shop.AtKey(time.Unix(42, 0)), "AT#0000000042"),
	)
	It("sorts time keys in time order", func() {
		times := []time.Time{time.Unix(0, 0), time.Unix(9, 0), time.Unix(10, 0), at, time.Unix(9_999_999_999, 0)}
		for i := 1; i < len(times); i++ {
			Expect(shop.AtKey(times[i-1]) < shop.AtKey(times[i])).To(BeTrue(), "%v then %v", times[i-1], times[i])
		}
	})
})
