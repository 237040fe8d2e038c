package agencies_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/internal/ddbtest"
	_ "github.com/ddbharness/ddbharness/internal/hostile" // hostile verify's fault rules
)

func TestAgencies(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "agencies", Label(agencies.Design.Label()))
}

var env = ddbtest.Setup(agencies.Design)

var (
	table agencies.Table // this process's own table, the patterns under test
	// quiet is the same table through the client straight to DynamoDB:
	// a spec's own setup in its body, and its reads of what a pattern
	// stored, never behind hostile verify's faults.
	quiet agencies.Table
	fake  *fixtures.Agencies
)

var _ = BeforeEach(func() {
	table = agencies.Table{DB: env.Patterns, Name: env.Table}
	quiet = agencies.Table{DB: env.DB, Name: env.Table}
	if fake == nil { // one generator per process: keys and clock never repeat within its table
		fake = fixtures.NewAgencies(GinkgoRandomSeed() + int64(GinkgoParallelProcess()))
	}
})

// rawItem reads the item at pk/sk consistently from the table itself, not
// through any pattern; nil when absent.
func rawItem(ctx context.Context, pk, sk string) map[string]types.AttributeValue {
	return env.Item(ctx, agencies.Schema.Key(pk, sk))
}

func agencyStored(ctx context.Context, id string) bool {
	return env.Stored(ctx, agencies.Schema.Key(agencies.AgencyPK(id), agencies.AgencySK(id)))
}

func memberStored(ctx context.Context, agencyID, idpID string) bool {
	return env.Stored(ctx, agencies.Schema.Key(agencies.AgencyPK(agencyID), agencies.MemberSK(idpID)))
}

// str is the string value of an attribute, "" when absent or not a string.
func str(item map[string]types.AttributeValue, attr string) string {
	s, _ := item[attr].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// createAgency stores a fresh agency and n fresh members of it, through
// quiet: it is setup, also in a spec's body.
func createAgency(ctx context.Context, members int) (agencies.Agency, []agencies.Member) {
	GinkgoHelper()
	a := fake.Agency()
	Expect(quiet.CreateAgency(ctx, a)).To(Succeed())
	ms := make([]agencies.Member, members)
	for i := range ms {
		ms[i] = fake.Member(a.ID)
		Expect(quiet.CreateMember(ctx, ms[i])).To(Succeed())
	}
	return a, ms
}

// maxPages stops a listing that never ends.
const maxPages = 1000

// collect reads every page of a listing and returns the items and the size
// of each page. Only the last page may have an empty cursor.
func collect[T any](list func(after designs.Cursor) ([]T, designs.Cursor, error)) ([]T, []int, error) {
	var all []T
	var sizes []int
	var after designs.Cursor
	for range maxPages {
		items, next, err := list(after)
		if err != nil {
			return nil, nil, err
		}
		all, sizes = append(all, items...), append(sizes, len(items))
		if next == "" {
			return all, sizes, nil
		}
		after = next
	}
	Fail("listing did not end")
	return nil, nil, nil
}

func agencyPages(list func(designs.Cursor) (agencies.AgencyPage, error)) ([]agencies.Agency, []int, error) {
	return collect(func(after designs.Cursor) ([]agencies.Agency, designs.Cursor, error) {
		p, err := list(after)
		return p.Agencies, p.Next, err
	})
}

func memberPages(list func(designs.Cursor) (agencies.MemberPage, error)) ([]agencies.Member, []int, error) {
	return collect(func(after designs.Cursor) ([]agencies.Member, designs.Cursor, error) {
		p, err := list(after)
		return p.Members, p.Next, err
	})
}

// pageSizes is what paging total items n at a time must give: full pages,
// then the rest; a single empty page when there is nothing.
func pageSizes(total, n int) []int {
	sizes := []int{}
	for ; total > n; total -= n {
		sizes = append(sizes, n)
	}
	return append(sizes, total)
}

func byIdpID(a, b agencies.Member) int    { return strings.Compare(a.IdpID, b.IdpID) }
func byAgencyID(a, b agencies.Member) int { return strings.Compare(a.AgencyID, b.AgencyID) }

func sorted[T any](items []T, cmp func(a, b T) int) []T {
	return slices.SortedFunc(slices.Values(items), cmp)
}
