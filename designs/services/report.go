package services

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// Period is a report period: a year "2026", a month "2026-03" or a day
// "2026-03-14". Being a prefix of the ByYear sort key, it selects its
// services with begins_with inside the partition of its year.
type Period string

// Year, Month and Day make periods.
func Year(y int) Period                     { return Period(fmt.Sprintf("%04d", y)) }
func Month(y int, m time.Month) Period      { return Period(fmt.Sprintf("%04d-%02d", y, m)) }
func Day(y int, m time.Month, d int) Period { return Period(fmt.Sprintf("%04d-%02d-%02d", y, m, d)) }

// check accepts a real year, month or day in the fixed-width form.
func (p Period) check() error {
	layout := map[int]string{4: "2006", 7: "2006-01", 10: DateLayout}[len(p)]
	if t, err := time.Parse(layout, string(p)); layout == "" || err != nil || t.Format(layout) != string(p) {
		return fmt.Errorf("%w: period %q is not YYYY, YYYY-MM or YYYY-MM-DD", designs.ErrInvalidInput, p)
	}
	return nil
}

// ReportPeriod is AP-07 (ByYear, Query): every service of a year, a month or
// a day, in date order (a day's services in recording order), n per page;
// pass Next as after for the page that follows. The partition is the year,
// the sort key condition begins_with(YSK, period). ByYear is a GSI, so a
// service written a moment ago may not show yet.
func (t Table) ReportPeriod(ctx context.Context, p Period, n int, after designs.Cursor) (Page, error) {
	if err := p.check(); err != nil {
		return Page{}, fmt.Errorf("%s: %w", ReportPeriodID, err)
	}
	year := YearPK(string(p))
	return t.list(ctx, listing{
		id: ReportPeriodID, index: ByYear, pkAttr: attrYearPK, pk: year,
		key: expression.Key(attrYearPK).Equal(expression.Value(year)).
			And(expression.Key(attrYearSK).BeginsWith(string(p))),
	}, n, after)
}

// ReportRange is AP-08 (ByYear, Query): every service dated from..to, both
// included, in date order, n per page. Both dates must lie in one year: a
// year is one partition of ByYear, and one Query reads one partition; a
// range across years is one call per year. The sort key condition is
// BETWEEN from AND to+"$" (see rangeEnd). Eventually consistent, like AP-07.
func (t Table) ReportRange(ctx context.Context, from, to string, n int, after designs.Cursor) (Page, error) {
	for _, d := range []string{from, to} {
		if err := checkDate(d); err != nil {
			return Page{}, fmt.Errorf("%s: %w", ReportRangeID, err)
		}
	}
	if YearPK(from) != YearPK(to) || from > to {
		return Page{}, fmt.Errorf("%s: %s..%s: %w: want from <= to within one year", ReportRangeID, from, to, designs.ErrInvalidInput)
	}
	year := YearPK(from)
	return t.list(ctx, listing{
		id: ReportRangeID, index: ByYear, pkAttr: attrYearPK, pk: year,
		key: expression.Key(attrYearPK).Equal(expression.Value(year)).
			And(expression.Key(attrYearSK).Between(expression.Value(from), expression.Value(rangeEnd(to)))),
	}, n, after)
}
