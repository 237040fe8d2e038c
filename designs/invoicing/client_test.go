package invoicing_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/invoicing"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
)

func clientStored(ctx SpecContext, c invoicing.Client) bool {
	return stored(ctx, invoicing.ClientPK(c.ID), invoicing.ClientSK(c.ID))
}

func emailStored(ctx SpecContext, email string) bool {
	return stored(ctx, invoicing.ClientEmailKey(email), invoicing.ClientEmailKey(email))
}

var _ = Describe("AP-02 create client", Label("AP-02", "main-table"), func() {
	var client invoicing.Client
	BeforeEach(func(ctx SpecContext) {
		client = fake.Client()
		Expect(table.CreateClient(ctx, client)).To(Succeed())
	})

	// held checks that the client set up keeps its item and its email
	// item, whatever a refused create met.
	held := func(ctx SpecContext) {
		GinkgoHelper()
		Expect(clientStored(ctx, client)).To(BeTrue())
		Expect(emailStored(ctx, client.Email)).To(BeTrue())
	}

	It("writes the client and its email item", func(ctx SpecContext) {
		fresh := fake.Client()
		absent := func() {
			Expect(clientStored(ctx, fresh)).To(BeFalse())
			Expect(emailStored(ctx, fresh.Email)).To(BeFalse())
		}
		err := env.Again(func() error { return table.CreateClient(ctx, fresh) }, absent)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(clientStored(ctx, fresh)).To(BeTrue())
		Expect(emailStored(ctx, fresh.Email)).To(BeTrue())
		page, err := quiet.ViewClientRecentInvoices(ctx, fresh.ID, 5, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Client).To(Equal(fresh))
	})

	It("refuses a taken email and writes no client item", func(ctx SpecContext) {
		other := fake.Client()
		other.Email = client.Email
		unchanged := func() {
			held(ctx)
			Expect(clientStored(ctx, other)).To(BeFalse())
		}
		err := env.Again(func() error { return table.CreateClient(ctx, other) }, unchanged)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(invoicing.ErrEmailTaken))
			Expect(err).To(MatchError(designs.ErrRefused), "a design's refusal is a designs.ErrRefused")
			Expect(err).NotTo(MatchError(designs.ErrAlreadyExists), "the client ID was free")
		}
		unchanged()
	})

	It("refuses a taken client ID and writes no email item", func(ctx SpecContext) {
		other := fake.Client()
		other.ID = client.ID
		unchanged := func() {
			held(ctx)
			Expect(emailStored(ctx, other.Email)).To(BeFalse())
		}
		err := env.Again(func() error { return table.CreateClient(ctx, other) }, unchanged)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrAlreadyExists))
		}
		unchanged()
	})

	It("lets exactly one of 20 concurrent clients take one email", func(ctx SpecContext) {
		email := fake.UniqueEmail()
		clients := make([]invoicing.Client, 20)
		for i := range clients {
			clients[i] = fake.Client()
			clients[i].Email = email
		}
		winner := env.OnlyWinner(ddbtest.Race(len(clients), func(i int) error { return table.CreateClient(ctx, clients[i]) }), invoicing.ErrEmailTaken)
		for i, c := range clients {
			Expect(clientStored(ctx, c)).To(Equal(i == winner), "client %d", i)
		}
		Expect(emailStored(ctx, email)).To(BeTrue())
	})
})

var _ = Describe("AP-05 update client details", Label("AP-05", "main-table"), func() {
	var client invoicing.Client
	BeforeEach(func(ctx SpecContext) {
		client = fake.Client()
		Expect(table.CreateClient(ctx, client)).To(Succeed())
	})

	view := func(ctx SpecContext, id string) invoicing.Client {
		page, err := quiet.ViewClientRecentInvoices(ctx, id, 1, "")
		Expect(err).NotTo(HaveOccurred())
		return page.Client
	}

	// The invariant of an update either way: the client is stored as
	// want, whole, with its email item and no other (a fault that reaches
	// the caller leaves it as it was).
	storedAs := func(ctx SpecContext, want invoicing.Client) {
		Expect(view(ctx, client.ID)).To(Equal(want))
		Expect(emailStored(ctx, want.Email)).To(BeTrue())
		if want.Email != client.Email {
			Expect(emailStored(ctx, client.Email)).To(BeFalse())
		}
	}

	It("changes name and address and keeps the email item", func(ctx SpecContext) {
		changed := client
		changed.Name, changed.Address = fake.Name(), fake.Street()
		var got invoicing.Client
		err := env.Again(func() (err error) { got, err = table.UpdateClient(ctx, changed); return err }, func() { storedAs(ctx, client) })
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(changed))
		storedAs(ctx, changed)
	})

	It("moves the email item when the email changes, freeing the old one", func(ctx SpecContext) {
		changed := client
		changed.Email = fake.UniqueEmail()
		freed := func() {
			storedAs(ctx, client)
			Expect(emailStored(ctx, changed.Email)).To(BeFalse())
		}
		err := env.Again(func() error { _, err := table.UpdateClient(ctx, changed); return err }, freed)
		if env.Faulted(err) {
			return
		}
		Expect(err).NotTo(HaveOccurred())
		storedAs(ctx, changed)

		reuser := fake.Client()
		reuser.Email = client.Email
		Expect(quiet.CreateClient(ctx, reuser)).To(Succeed(), "the old email is free again")
	})

	It("refuses an email another client has and changes nothing", func(ctx SpecContext) {
		other := fake.Client()
		Expect(quiet.CreateClient(ctx, other)).To(Succeed())
		changed := client
		changed.Email, changed.Name = other.Email, fake.Name()
		err := env.Again(func() error { _, err := table.UpdateClient(ctx, changed); return err }, func() { storedAs(ctx, client) })
		if !env.Faulted(err) {
			Expect(err).To(MatchError(invoicing.ErrEmailTaken))
		}
		storedAs(ctx, client)
	})

	It("reports ErrNotFound for an unknown client and writes nothing", func(ctx SpecContext) {
		ghost := fake.Client()
		_, err := table.UpdateClient(ctx, ghost)
		if !env.Faulted(err) {
			Expect(err).To(MatchError(designs.ErrNotFound))
		}
		Expect(clientStored(ctx, ghost)).To(BeFalse())
		Expect(emailStored(ctx, ghost.Email)).To(BeFalse())
	})

	It("lets exactly one of 20 clients switch to one new email", func(ctx SpecContext) {
		email := fake.UniqueEmail()
		clients := make([]invoicing.Client, 20)
		for i := range clients {
			clients[i] = fake.Client()
			Expect(quiet.CreateClient(ctx, clients[i])).To(Succeed())
		}
		winner := env.OnlyWinner(ddbtest.Race(len(clients), func(i int) error {
			c := clients[i]
			c.Email = email
			_, err := table.UpdateClient(ctx, c)
			return err
		}), invoicing.ErrEmailTaken)
		for i, c := range clients {
			Expect(emailStored(ctx, c.Email)).To(Equal(i != winner), "client %d keeps its old email item unless it won", i)
			want := c.Email
			if i == winner {
				want = email
			}
			Expect(view(ctx, c.ID).Email).To(Equal(want), "client %d", i)
		}
	})
})
