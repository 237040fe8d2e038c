package invoicing_test

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

var _ = Describe("AP-01 create account", Label("AP-01", "main-table"), func() {
	// The account is a singleton of the table, so one spec owns it: 20
	// owners race for it, exactly one wins, and a later create is refused.
	It("creates the account exactly once", func(ctx SpecContext) {
		accounts := make([]invoicing.Account, 20)
		for i := range accounts {
			accounts[i] = fake.Account()
		}
		winner := ddbtest.OnlyWinner(ddbtest.Race(len(accounts), func(i int) error {
			return table.CreateAccount(ctx, accounts[i])
		}), designs.ErrAlreadyExists)

		out, err := env.DB.GetItem(ctx, &dynamodb.GetItemInput{
			TableName: aws.String(env.Table), Key: invoicing.Schema.Key(invoicing.AccountKey(), invoicing.AccountKey()),
			ConsistentRead: aws.Bool(true),
		})
		Expect(err).NotTo(HaveOccurred())
		var got invoicing.Account
		Expect(attributevalue.UnmarshalMap(out.Item, &got)).To(Succeed())
		Expect(got).To(Equal(accounts[winner]))

		Expect(table.CreateAccount(ctx, fake.Account())).To(MatchError(designs.ErrAlreadyExists))
	})

	It("refuses an account without an email before writing", func(ctx SpecContext) {
		a := fake.Account()
		a.Email = ""
		Expect(table.CreateAccount(ctx, a)).To(MatchError(designs.ErrInvalidInput))
	})
})
