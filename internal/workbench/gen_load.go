package workbench

import (
	"fmt"
	"strings"

	"github.com/ddbharness/ddbharness/internal/scaffold"
)

// plural is the field of Seeded<Design> holding an entity's items.
func plural(e *Entity) string { return scaffold.Plural(e.Go) }

func (d *Design) genFixtures(s *src) {
	P := d.pascal()
	s.p(`package fixtures

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/designs/%[1]s"
)

// %[2]s grows the %[1]s design's data from its model's sample items.
type %[2]s struct{ seed int64 }

// New%[2]s returns a generator; the same seed gives the same data.
func New%[2]s(seed int64) *%[2]s { return &%[2]s{seed} }

// Seeded%[2]s is what Seed wrote, entity by entity.
type Seeded%[2]s struct {`, d.Name, P)
	for _, e := range d.Entities {
		s.p("%s []%s.%s", plural(e), d.Name, e.Go)
	}
	s.p(`}

// Seed writes the model's sample items, then n copies of them
// (%[1]s.Grown with Vary: the samples' layouts, as many items per
// partition), the copies numbered from the seed, so that another seed
// makes other items.
func (f *%[2]s) Seed(ctx context.Context, l *Loader, n int, progress func(done, total int)) (Seeded%[2]s, error) {
	var s Seeded%[2]s
	put := func(e %[1]s.Entity) error {
		switch v := e.(type) {`, d.Name, P)
	for _, e := range d.Entities {
		s.p("case %s.%s:\ns.%s = append(s.%s, v)", d.Name, e.Go, plural(e), plural(e))
	}
	s.p(`}
		item, err := e.Item()
		if err != nil {
			return err
		}
		_, err = l.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(l.Table()), Item: item})
		return err
	}
	for _, e := range %[1]s.Samples {
		if err := put(e); err != nil {
			return s, err
		}
	}
	first := 1 + int(uint64(f.seed)%%100)*100 // the seed's first copy number
	err := l.Each(ctx, n, progress, func(i int) error {
		k := len(%[1]s.Samples)
		return put(%[1]s.Grown(%[1]s.Samples[i%%k], first+i/k, Vary))
	})
	return s, err
}`, d.Name)
}
func (d *Design) genScenario(s *src) {
	P := d.pascal()
	s.p(`package scenarios

import (
	"context"
	"math/rand/v2"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/ddbharness/ddbharness/designs"
	"github.com/ddbharness/ddbharness/designs/%[1]s"
	"github.com/ddbharness/ddbharness/fixtures"
	"github.com/ddbharness/ddbharness/workload"
)

// %[2]sSteady is %[1]s's default scenario: every generated pattern in an
// even mix over the seeded samples and their copies, popular keys read
// most (Zipf). Replace the mix with the design's real traffic.
var %[2]sSteady = workload.Scenario{
	Name:     "%[1]s/steady",
	About:    "the imported model's gets and queries, evenly mixed",
	Design:   %[1]s.Design,
	Pool:     200,
	Pacer:    vegeta.ConstantPacer{Freq: 50, Per: time.Second},
	Duration: 10 * time.Second,
	Mix: []workload.Step{`, d.Name, P)
	for _, p := range d.own() {
		s.p("{Pattern: %s.%sID, Weight: 10, Entity: %q, Keys: workload.Zipf{S: 1.1}},", d.Name, p.Go, d.poolOf(p).Facet)
	}
	s.p(`},
	Driver: new%[2]sDriver,
}

// %[1]sDriver calls the %[1]s patterns on the seeded items: a step's key
// indexes the items of the entity it names. The pool never changes after
// Seed, so calls read it without a lock.
type %[1]sDriver struct {
	t    %[1]s.Table
	seed int64
	pool fixtures.Seeded%[2]s
}

func new%[2]sDriver(db designs.DB, table string, seed int64) workload.Driver {
	return &%[1]sDriver{t: %[1]s.Table{DB: db, Name: table}, seed: seed}
}

// Seed writes the samples and copies of them, at least n items.
func (d *%[1]sDriver) Seed(ctx context.Context, n int, progress func(done, total int)) error {
	pool, err := fixtures.New%[2]s(d.seed).Seed(ctx, fixtures.NewLoader(d.t.DB, d.t.Name, %[1]s.Schema), n, progress)
	d.pool = pool
	return err
}

// Pools counts what Seed made, by entity.
func (d *%[1]sDriver) Pools() workload.Pools {
	return workload.Pools{`, d.Name, P)
	for _, e := range d.Entities {
		s.p("%q: len(d.pool.%s),", e.Facet, plural(e))
	}
	s.p(`}
}

// Call runs p on the key-th item of its step's entity. Every call reads
// what Seed wrote, so none expects an error; before Seed, ErrNotSeeded.
func (d *%[1]sDriver) Call(ctx context.Context, p designs.PatternID, key int, _ *rand.Rand) error {
	if len(d.pool.%[2]s) == 0 {
		return ErrNotSeeded
	}
	var err error
	switch p {`, d.Name, plural(d.Entities[0]))
	for _, p := range d.own() {
		e := d.poolOf(p)
		s.p("case %s.%sID:", d.Name, p.Go)
		vars := d.vars(p)
		var args []string
		for _, v := range vars {
			args = append(args, "v."+v.Go+", ")
		}
		if len(vars) > 0 {
			s.p("v := d.pool.%s[key]", plural(e))
		}
		if p.Entity != nil {
			s.p("_, err = d.t.%s(ctx, %s)", p.Go, strings.TrimSuffix(strings.Join(args, ""), ", "))
		} else {
			s.p("_, _, err = d.t.%s(ctx, %s\"\")", p.Go, strings.Join(args, ""))
		}
	}
	s.p(`default:
		err = unknown(%s.Design.Name, p)
	}
	return err
}`, d.Name)
}

// poolOf is the entity whose seeded items give a pattern its arguments.
func (d *Design) poolOf(p *Pattern) *Entity {
	if p.Entity != nil {
		return p.Entity
	}
	return p.Group[0]
}

// A name the model spells with a line break keeps the README's lines and
// table rows whole; a table cell also escapes its pipes.
var (
	mdLine = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
	mdCell = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "|", `\|`)
)

func (d *Design) readme(model string) []byte {
	var b strings.Builder
	line := mdLine.Replace
	fmt.Fprintf(&b, "# %s\n\nImported from the NoSQL Workbench model %s, table `%s`, by `ddbharness import-model`.\n", d.Name, line(model), line(d.Table.TableName))
	fmt.Fprintf(&b, "Every pattern below has a spec that loads the model's sample items into DynamoDB Local\nand expects them back; the key layouts were read from the sample keys (separator `%s`).\n\n", d.Sep)
	fmt.Fprintf(&b, "## Table\n\n- partition key `%s`", line(d.Schema.PK))
	if d.Schema.SK != "" {
		fmt.Fprintf(&b, ", sort key `%s`", line(d.Schema.SK))
	}
	fmt.Fprintf(&b, "; entity type in `%s`\n", line(d.Schema.TypeAttribute))
	for _, ix := range d.Schema.ItemSchema().Indexes { // an LSI's partition key and the default projection filled in
		fmt.Fprintf(&b, "- index `%s`: `%s` / `%s`, projection %s\n", line(ix.Name), line(ix.PK), line(ix.SK), ix.Projection)
	}
	cell := mdCell.Replace
	b.WriteString("\n## Entities\n\n| Entity | Keys |\n|--------|------|\n")
	for _, e := range d.Entities {
		var keys []string
		for _, k := range e.Keys {
			some := ""
			if k.Flag != "" {
				some = " (items with " + k.Flag + ")"
			}
			keys = append(keys, fmt.Sprintf("`%s` = `%s`%s", cell(k.Attr), cell(k.Layout(d.Sep)), some))
		}
		fmt.Fprintf(&b, "| %s (`%s`) | %s |\n", cell(e.Facet), e.Go, strings.Join(keys, "; "))
	}
	b.WriteString("\n## Access patterns\n\n| ID | Pattern | Op | Index | What it does |\n|----|---------|----|-------|--------------|\n")
	for _, p := range d.Patterns {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.ID, cell(p.Name), p.Op, cell(p.Index), cell(p.Doc))
	}
	if len(d.Notes) > 0 {
		b.WriteString("\n## Notes from the import\n\n")
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "- %s\n", line(n))
		}
	}
	return []byte(b.String())
}
