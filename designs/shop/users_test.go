package shop_test

import (
	"context"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/shop"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

// createUsers stores n new users, oldest first, through quiet: a spec's
// setup, never the call it proves.
func createUsers(ctx context.Context, n int) []shop.User {
	users := make([]shop.User, n)
	for i := range users {
		users[i] = fake.User()
		Expect(quiet.CreateUser(ctx, users[i])).To(Succeed())
	}
	return users
}

func userIDs(users []shop.User) []string {
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	return ids
}

var _ = Describe("AP-01 get a user by id", Label("AP-01", "main-table"), func() {
	var user shop.User
	BeforeEach(func(ctx SpecContext) { user = createUsers(ctx, 1)[0] })

	It("returns the stored user", func(ctx SpecContext) {
		env.Answers(table.GetUser(ctx, user.ID))(user)
	})
	It("reports ErrNotFound for an unknown ID", func(ctx SpecContext) {
		_, err := table.GetUser(ctx, fake.User().ID)
		env.Refuses(err, designs.ErrNotFound)
	})
})

var _ = Describe("AP-02 get a user by email", Label("AP-02", shop.LSI1), func() {
	var user shop.User
	BeforeEach(func(ctx SpecContext) { user = createUsers(ctx, 2)[1] })

	DescribeTable("finds the one user with that email",
		func(ctx SpecContext, spell func(string) string) {
			Eventually(ctx, func(g Gomega) {
				g.Expect(table.GetUserByEmail(ctx, spell(user.Email))).To(Equal(user))
			}).Should(Succeed())
		},
		Entry("spelled as stored", func(e string) string { return e }),
		Entry("spelled in upper case", strings.ToUpper),
		Entry("surrounded by spaces", func(e string) string { return "  " + e + " " }),
	)
	It("reports ErrNotFound for an email no user has", func(ctx SpecContext) {
		_, err := table.GetUserByEmail(ctx, fake.User().Email)
		Expect(err).To(MatchError(designs.ErrNotFound))
	})
})

var _ = Describe("AP-03 list users", Label("AP-03", "main-table"), func() {
	var users []shop.User
	BeforeEach(func(ctx SpecContext) { users = createUsers(ctx, 5) })

	DescribeTable("pages through every user, oldest first, this spec's users last",
		func(ctx SpecContext, size int) {
			all := pageAll(ctx, Default, size, table.ListUsers)
			ascending(userIDs(all))
			Expect(tail(all, len(users))).To(Equal(users))
		},
		Entry("one user a page", 1),
		Entry("two users a page", 2),
		Entry("five users a page", 5),
		Entry("the largest page", shop.MaxPageSize),
	)
	DescribeTable("refuses a bad page request before reading",
		func(ctx SpecContext, size int, after designs.Cursor) {
			_, err := table.ListUsers(ctx, size, after)
			Expect(err).To(MatchError(designs.ErrInvalidInput))
		},
		Entry("a page of zero", 0, designs.Cursor("")),
		Entry("a page larger than MaxPageSize", shop.MaxPageSize+1, designs.Cursor("")),
		Entry("a cursor no page returned", 2, designs.Cursor("not a cursor!")),
	)
})

var _ = Describe("AP-04 list users filter by created_at", Label("AP-04", "main-table"), func() {
	var older, newer []shop.User
	var before time.Time
	BeforeEach(func(ctx SpecContext) {
		older = createUsers(ctx, 2)
		before = fake.Tick() // a second between the two groups
		newer = createUsers(ctx, 3)
	})

	DescribeTable("lists the users created at or after a time, oldest first",
		func(ctx SpecContext, since func() time.Time, want func() []shop.User) {
			Expect(pageAll(ctx, Default, 2, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.User], error) {
				return table.ListUsersCreatedSince(ctx, since(), size, after)
			})).To(Equal(want()))
		},
		Entry("since a second with no user: all newer users",
			func() time.Time { return before }, func() []shop.User { return newer }),
		Entry("since the second of the first newer user: it is included",
			func() time.Time { return newer[0].CreatedAt }, func() []shop.User { return newer }),
		Entry("since a second after it: it is left out",
			func() time.Time { return newer[0].CreatedAt.Add(time.Second) }, func() []shop.User { return newer[1:] }),
		Entry("since the last older user: it and all newer users",
			func() time.Time { return older[1].CreatedAt }, func() []shop.User { return append(older[1:2:2], newer...) }),
	)
	It("refuses a time before 1970", func(ctx SpecContext) {
		_, err := table.ListUsersCreatedSince(ctx, time.Time{}, 2, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})

var _ = Describe("AP-05 list users filter by email-prefix", Label("AP-05", shop.GSI1), func() {
	var prefix string
	var matching []shop.User
	BeforeEach(func(ctx SpecContext) {
		prefix = fake.Token(10)
		matching = nil
		for range 4 {
			u := fake.User()
			u.Email = prefix + "." + u.Email
			Expect(quiet.CreateUser(ctx, u)).To(Succeed())
			matching = append(matching, u)
		}
		decoy := fake.User()
		decoy.Email = "x" + prefix + "." + decoy.Email // holds the prefix, but not at the start
		Expect(quiet.CreateUser(ctx, decoy)).To(Succeed())
		slices.SortFunc(matching, func(a, b shop.User) int { return strings.Compare(a.Email, b.Email) })
	})

	DescribeTable("lists exactly the users whose email starts with the prefix, in email order",
		func(ctx SpecContext, spell func(string) string) {
			indexed(ctx, func(ctx context.Context, size int, after designs.Cursor) (shop.Page[shop.User], error) {
				return table.ListUsersByEmailPrefix(ctx, spell(prefix), size, after)
			}, matching, 3, 4)
		},
		Entry("with the prefix as given", func(p string) string { return p }),
		Entry("with the prefix in upper case", strings.ToUpper),
	)
	It("refuses an empty prefix", func(ctx SpecContext) {
		_, err := table.ListUsersByEmailPrefix(ctx, " ", 5, "")
		Expect(err).To(MatchError(designs.ErrInvalidInput))
	})
})

var _ = Describe("AP-21 create user", Label("AP-21", "main-table"), func() {
	var user shop.User
	BeforeEach(func(ctx SpecContext) { user = createUsers(ctx, 1)[0] })

	// unwritten expects neither the user u nor an item reserving its email
	// for it: what a create that handed back a fault or a refusal leaves.
	unwritten := func(ctx context.Context, u shop.User) {
		GinkgoHelper()
		Expect(stored(ctx, shop.UsersPK, shop.UserSK(u.ID))).To(BeFalse())
		key := shop.UserEmailKey(u.Email)
		if item := rawItem(ctx, key, key); item != nil {
			Expect(item).NotTo(HaveKeyWithValue("UserID", u.ID))
		}
	}

	It("stores the user and the item reserving its email", func(ctx SpecContext) {
		u := fake.User()
		err := env.Again(func() error { return table.CreateUser(ctx, u) }, func() { unwritten(ctx, u) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(quiet.GetUser(ctx, u.ID)).To(Equal(u))
		key := shop.UserEmailKey(u.Email)
		Expect(rawItem(ctx, key, key)).To(HaveKeyWithValue("UserID", u.ID))
	})
	It("refuses an email taken in another case, writing nothing", func(ctx SpecContext) {
		other := fake.User()
		other.Email = strings.ToUpper(user.Email)
		kept := func() {
			unwritten(ctx, other)
			key := shop.UserEmailKey(user.Email)
			Expect(rawItem(ctx, key, key)).To(HaveKeyWithValue("UserID", user.ID))
		}
		err := env.Again(func() error { return table.CreateUser(ctx, other) }, kept)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(shop.ErrEmailTaken))
		}
		kept()
	})
	It("refuses a taken ID, writing nothing", func(ctx SpecContext) {
		other := fake.User()
		other.ID, other.CreatedAt, other.UpdatedAt = user.ID, user.CreatedAt, user.UpdatedAt
		kept := func() {
			key := shop.UserEmailKey(other.Email)
			Expect(stored(ctx, key, key)).To(BeFalse())
			Expect(quiet.GetUser(ctx, user.ID)).To(Equal(user))
		}
		err := env.Again(func() error { return table.CreateUser(ctx, other) }, kept)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrAlreadyExists))
		}
		kept()
	})
	DescribeTable("refuses an invalid user before writing",
		func(ctx SpecContext, spoil func(*shop.User)) {
			u := fake.User()
			spoil(&u)
			Expect(table.CreateUser(ctx, u)).To(MatchError(designs.ErrInvalidInput))
			Expect(stored(ctx, shop.UsersPK, shop.UserSK(u.ID))).To(BeFalse())
			key := shop.UserEmailKey(u.Email)
			Expect(stored(ctx, key, key)).To(BeFalse())
		},
		Entry("without a name", func(u *shop.User) { u.Name = "" }),
		Entry("with an email lacking an @", func(u *shop.User) { u.Email = strings.ReplaceAll(u.Email, "@", ".") }),
		Entry("with an email of two @", func(u *shop.User) { u.Email = "a@" + u.Email }),
		Entry("with an ID that is no KSUID", func(u *shop.User) { u.ID = "user-1" }),
		Entry("with an ID of another second than CreatedAt", func(u *shop.User) { u.CreatedAt = u.CreatedAt.Add(-time.Second) }),
		Entry("updated before created", func(u *shop.User) { u.UpdatedAt = u.CreatedAt.Add(-time.Hour) }),
	)
	It("lets exactly one of 20 concurrent creates with one email win", func(ctx SpecContext) {
		email := fake.User().Email
		users := make([]shop.User, 20)
		for i := range users {
			users[i] = fake.User()
			users[i].Email = email
		}
		winner := env.OnlyWinner(ddbtest.Race(len(users), func(i int) error { return table.CreateUser(ctx, users[i]) }), shop.ErrEmailTaken)
		for i, u := range users {
			Expect(stored(ctx, shop.UsersPK, shop.UserSK(u.ID))).To(Equal(i == winner), "user %d", i)
		}
		Expect(quiet.GetUser(ctx, users[winner].ID)).To(Equal(users[winner]))
		key := shop.UserEmailKey(email)
		Expect(rawItem(ctx, key, key)).To(HaveKeyWithValue("UserID", users[winner].ID))
		Eventually(ctx, func(g Gomega) {
			g.Expect(quiet.GetUserByEmail(ctx, email)).To(Equal(users[winner]))
		}).Should(Succeed())
	})
})
