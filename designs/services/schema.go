// Package services restates design seed 004: an agency records the services
// it gives its clients. A client's services share a partition, ordered by
// service date for the History screen; a yearly index (ByYear) serves
// reports for a year, a month, a day or a date range; a sparse index
// (AwaitingVoucher) holds only the services whose voucher was issued and not
// yet fulfilled.
package services

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// Index names.
const (
	ByYear          = "ByYear"
	AwaitingVoucher = "AwaitingVoucher"
)

// Key attribute names. They are short because every item carries them and
// every index copies them; domain attributes keep readable names (see
// README, "Item size").
const (
	attrYearPK     = "YPK"
	attrYearSK     = "YSK"
	attrAwaitingPK = "AVPK"
	attrAwaitingSK = "AVSK"
)

// Schema is the single table: services under their client, plus the yearly
// report index and the sparse voucher index, both projecting every attribute
// so that a report or a fulfilment list needs no second read.
var Schema = designs.Schema{PK: "PK", SK: "SK",
	GSIs: []designs.Index{
		{Name: ByYear, PK: attrYearPK, SK: attrYearSK},
		{Name: AwaitingVoucher, PK: attrAwaitingPK, SK: attrAwaitingSK},
	}}

// MaxPageSize is the largest page a listing hands out. DynamoDB also stops a
// page at 1 MB, so a page may hold fewer services and still have a Next.
const MaxPageSize = 1000

// Table is a handle on one services table.
type Table struct {
	DB   designs.DB
	Name string
}

// Layouts of the fixed-width time parts of keys: dates sort as text in
// calendar order, and so do issue stamps (always UTC, always 9 decimals).
const (
	DateLayout  = "2006-01-02"
	stampLayout = "2006-01-02T15:04:05.000000000Z"
)

// Key builders. A service's table SK and ByYear SK both start with its date,
// so a client's history and a year's report come out in date order; the
// service ID (a KSUID) makes the key unique and orders a day's services by
// recording time. AVSK starts with the voucher's issue stamp: the oldest
// voucher is first in line for fulfilment. Dates are checked before they
// reach a builder; YearPK takes the first four characters of a date or period.
func ClientPK(clientID string) string         { return "CLIENT#" + clientID }
func ServiceSK(date, serviceID string) string { return servicePrefix + date + "#" + serviceID }
func YearPK(date string) string               { return date[:4] }
func YearSK(date, serviceID string) string    { return date + "#" + serviceID }
func ProgramPK(program string) string         { return "PROGRAM#" + program }
func AwaitingSK(issued time.Time, id string) string {
	return issued.UTC().Format(stampLayout) + "#" + id
}

// servicePrefix starts every service SK, leaving the rest of a client's
// partition free for other item types.
const servicePrefix = "SERVICE#"

// rangeEnd is the inclusive upper bound of a date range on ByYear: '$'
// follows the '#' after the date, so date+"$" is above every key of that day
// and below every key of the next.
func rangeEnd(date string) string { return date + "$" }

const typeService = "Service"

// ServiceKey locates one service. The date is part of it because the sort
// key leads with the date; every listing returns it with the service.
type ServiceKey struct {
	ClientID string
	Date     string // YYYY-MM-DD
	ID       string
}

func (k ServiceKey) String() string { return k.ClientID + "/" + k.Date + "/" + k.ID }

// key is the table's primary key of the service.
func (k ServiceKey) key() map[string]types.AttributeValue {
	return Schema.Key(ClientPK(k.ClientID), ServiceSK(k.Date, k.ID))
}

// Service is one service given to a client on a date. ID is a KSUID made
// when the service is recorded. Voucher is set from issuance on.
type Service struct {
	ClientID string `dynamodbav:"ClientID"`
	ID       string `dynamodbav:"ServiceID"`
	Date     string `dynamodbav:"Date"` // YYYY-MM-DD, the day the service was given
	Details
	RecordedAt time.Time `dynamodbav:"RecordedAt"`
	Voucher    *Voucher  `dynamodbav:"Voucher,omitempty"`
}

// Key is the service's primary key.
func (s Service) Key() ServiceKey { return ServiceKey{ClientID: s.ClientID, Date: s.Date, ID: s.ID} }

// Details are the fields of a service an edit may change besides its date.
type Details struct {
	Kind  string `dynamodbav:"Kind"` // "food hamper", "transit pass", ...
	Units int    `dynamodbav:"Units"`
	Notes string `dynamodbav:"Notes"`
}

// Voucher is issued by a program for a service and later fulfilled (the
// client redeemed it). Money is in integer cents.
type Voucher struct {
	Code        string     `dynamodbav:"Code"`
	Program     string     `dynamodbav:"Program"`
	AmountCents int64      `dynamodbav:"AmountCents"`
	IssuedAt    time.Time  `dynamodbav:"IssuedAt"`
	FulfilledAt *time.Time `dynamodbav:"FulfilledAt,omitempty"`
}

// Page is one page of a listing; pass Next to get the page after it. Next is
// empty exactly when nothing follows.
type Page struct {
	Services []Service
	Next     designs.Cursor
}

// serviceItem is a service as stored: the service plus its table and index
// keys. The AwaitingVoucher keys are present only while the voucher awaits
// fulfilment (omitempty: an index key may not be an empty string). Version
// counts writes so that a move can tell whether the item changed since it
// was read.
type serviceItem struct {
	PK      string `dynamodbav:"PK"`
	SK      string `dynamodbav:"SK"`
	Type    string `dynamodbav:"Type"`
	YPK     string `dynamodbav:"YPK"`
	YSK     string `dynamodbav:"YSK"`
	AVPK    string `dynamodbav:"AVPK,omitempty"`
	AVSK    string `dynamodbav:"AVSK,omitempty"`
	Version int    `dynamodbav:"Version"`
	Service
}

// newServiceItem places s at its date. A voucher awaiting fulfilment keeps
// the service in AwaitingVoucher.
func newServiceItem(s Service, version int) serviceItem {
	item := serviceItem{
		PK: ClientPK(s.ClientID), SK: ServiceSK(s.Date, s.ID), Type: typeService,
		YPK: YearPK(s.Date), YSK: YearSK(s.Date, s.ID),
		Version: version, Service: s,
	}
	if v := s.Voucher; v != nil && v.FulfilledAt == nil {
		item.AVPK, item.AVSK = ProgramPK(v.Program), AwaitingSK(v.IssuedAt, s.ID)
	}
	return item
}

// checkDate accepts only a real calendar day written YYYY-MM-DD, the form
// the keys sort by.
func checkDate(date string) error {
	d, err := time.Parse(DateLayout, date)
	if err != nil || d.Format(DateLayout) != date {
		return fmt.Errorf("%w: date %q is not a calendar day written %s", designs.ErrInvalidInput, date, DateLayout)
	}
	return nil
}

func (k ServiceKey) check() error {
	if k.ClientID == "" || k.ID == "" {
		return fmt.Errorf("%w: client ID and service ID are required", designs.ErrInvalidInput)
	}
	return checkDate(k.Date)
}

func (d Details) check() error {
	if d.Kind == "" || d.Units < 0 {
		return fmt.Errorf("%w: a service needs a kind and a unit count of 0 or more", designs.ErrInvalidInput)
	}
	return nil
}
