package scenarios

import (
	"context"
	"math/rand/v2"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/agencies"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// AgenciesTenantAdmin: users sign in and open their agencies, admins manage
// members, and the back office lists agencies; busy agencies and users take
// most of the traffic.
var AgenciesTenantAdmin = workload.Scenario{
	Name:     "agencies/tenant-admin",
	About:    "users open their agencies, admins manage members, the back office lists agencies",
	Design:   agencies.Design,
	Pool:     2000,
	Pacer:    vegeta.ConstantPacer{Freq: 250, Per: time.Second},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: agencies.GetAgencyID, Weight: 25, Keys: workload.Zipf{S: 1.1}},
		{Pattern: agencies.ListAgencyMembersID, Weight: 20, Keys: workload.Zipf{S: 1.1}},
		{Pattern: agencies.ListMembershipsID, Weight: 15, Keys: workload.Zipf{S: 1.1}},
		{Pattern: agencies.ListAgenciesID, Weight: 10},
		{Pattern: agencies.UpdateAgencyID, Weight: 5, Keys: workload.Zipf{S: 1.1}},
		{Pattern: agencies.UpdateMemberID, Weight: 5, Keys: workload.Zipf{S: 1.1}},
		{Pattern: agencies.CreateMemberID, Weight: 6, Keys: workload.Zipf{S: 1.1}},
		{Pattern: agencies.DeleteMemberID, Weight: 4},
		{Pattern: agencies.CreateAgencyID, Weight: 6},
		{Pattern: agencies.DeleteAgencyID, Weight: 4},
	},
	Driver: newAgenciesDriver,
}

// AgenciesDirectory: the design's own risk. Every agency sits under one
// GSI1 partition key, type = "Agency": the directory listing reads it, and
// every agency created or changed writes to it, at a rising rate.
var AgenciesDirectory = workload.Scenario{
	Name:     "agencies/directory",
	About:    "agency listings, creations and edits at a rising rate: all on GSI1's type=\"Agency\" partition",
	Design:   agencies.Design,
	Pool:     2000,
	Pacer:    vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: 100, Per: time.Second}, Slope: 15},
	Duration: 20 * time.Second,
	Mix: []workload.Step{
		{Pattern: agencies.ListAgenciesID, Weight: 40},
		{Pattern: agencies.CreateAgencyID, Weight: 25},
		{Pattern: agencies.UpdateAgencyID, Weight: 25},
		{Pattern: agencies.GetAgencyID, Weight: 10},
	},
	Driver: newAgenciesDriver,
}

// agenciesDriver calls the agencies patterns: key k is the k-th seeded
// agency and the k-th seeded user. Deletes take agencies and members the
// run created, so the seeded pool stays whole.
type agenciesDriver struct {
	t       agencies.Table
	seed    int64
	pool    fixtures.SeededAgencies
	created stack[string]          // agencies created during the run
	joined  stack[agencies.Member] // members added during the run
}

func newAgenciesDriver(db designs.DB, table string, seed int64) workload.Driver {
	return &agenciesDriver{t: agencies.Table{DB: db, Name: table}, seed: seed}
}

// Seed writes n agencies with their members, drawn from n users.
func (d *agenciesDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	pool, err := fixtures.NewAgencies(d.seed).Seed(ctx, fixtures.NewLoader(d.t.DB, d.t.Name, agencies.Schema), n, progress)
	d.pool = pool
	return err
}

// agenciesPageSize is the page an admin screen asks for.
const agenciesPageSize = 50

// Call runs p around the key-th agency and user. One listing in four of
// AP-09 narrows to a day of creation times.
func (d *agenciesDriver) Call(ctx context.Context, p designs.PatternID, key int, r *rand.Rand) error {
	if len(d.pool.Agencies) == 0 {
		return ErrNotSeeded
	}
	key %= len(d.pool.Agencies)
	a, members := d.pool.Agencies[key], d.pool.Members[key]
	f := fixtures.Live[fixtures.Agencies](r, time.Now())
	var err error
	switch p {
	case agencies.GetAgencyID:
		_, err = d.t.GetAgency(ctx, a.ID)
	case agencies.ListAgencyMembersID:
		_, err = d.t.ListAgencyMembers(ctx, a.ID, agenciesPageSize, "")
	case agencies.ListMembershipsID:
		_, err = d.t.ListMemberships(ctx, d.pool.Users[key], agenciesPageSize, "")
	case agencies.ListAgenciesID:
		if r.IntN(4) == 0 {
			_, err = d.t.ListAgenciesCreated(ctx, a.Created, a.Created.Add(24*time.Hour), agenciesPageSize, "")
		} else {
			_, err = d.t.ListAgencies(ctx, agenciesPageSize, "")
		}
	case agencies.UpdateAgencyID:
		_, err = d.t.UpdateAgency(ctx, a.ID, f.AgencyUpdate(), f.Edit())
	case agencies.UpdateMemberID:
		_, err = d.t.UpdateMember(ctx, a.ID, members[r.IntN(len(members))].IdpID, f.Edit())
	case agencies.CreateMemberID:
		m := f.Member(a.ID)
		made := d.joined.start(m)
		err = d.t.CreateMember(ctx, m)
		made(err == nil)
	case agencies.DeleteMemberID:
		m, ok := d.joined.pop(ctx)
		if !ok {
			m = agencies.Member{AgencyID: a.ID, IdpID: noID}
		}
		err = d.t.DeleteMember(ctx, m.AgencyID, m.IdpID)
	case agencies.CreateAgencyID:
		ag := f.Agency()
		made := d.created.start(ag.ID)
		err = d.t.CreateAgency(ctx, ag)
		made(err == nil)
	case agencies.DeleteAgencyID:
		id, ok := d.created.pop(ctx)
		if !ok {
			id = noID
		}
		err = d.t.DeleteAgency(ctx, id)
	default:
		err = unknown(agencies.Design.Name, p)
	}
	return err
}
