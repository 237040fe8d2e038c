package services

import "github.com/ddbharness/ddbharness/designs"

// Pattern IDs, in catalog order, which is that of the README's
// access-pattern table. Specs carry them as labels and scenarios name them,
// so a typo does not compile.
const (
	// RecordServiceID is the catalog ID of RecordService.
	RecordServiceID designs.PatternID = "AP-01"
	// GetServiceID is the catalog ID of GetService.
	GetServiceID designs.PatternID = "AP-02"
	// ListHistoryID is the catalog ID of ListHistory.
	ListHistoryID designs.PatternID = "AP-03"
	// UpdateServiceID is the catalog ID of UpdateService.
	UpdateServiceID designs.PatternID = "AP-04"
	// RescheduleServiceID is the catalog ID of RescheduleService.
	RescheduleServiceID designs.PatternID = "AP-05"
	// DeleteServiceID is the catalog ID of DeleteService.
	DeleteServiceID designs.PatternID = "AP-06"
	// ReportPeriodID is the catalog ID of ReportPeriod.
	ReportPeriodID designs.PatternID = "AP-07"
	// ReportRangeID is the catalog ID of ReportRange.
	ReportRangeID designs.PatternID = "AP-08"
	// IssueVoucherID is the catalog ID of IssueVoucher.
	IssueVoucherID designs.PatternID = "AP-09"
	// FulfilVoucherID is the catalog ID of FulfilVoucher.
	FulfilVoucherID designs.PatternID = "AP-10"
	// ListAwaitingVouchersID is the catalog ID of ListAwaitingVouchers.
	ListAwaitingVouchersID designs.PatternID = "AP-11"
)

// Design is the services catalog.
var Design = designs.Design{
	Name:    "services",
	Summary: "client services by date: a client's history, yearly/monthly/daily reports, a sparse list of vouchers awaiting fulfilment",
	Schema:  Schema,
	Patterns: []designs.Pattern{
		{ID: RecordServiceID, Name: "record a service", Op: designs.PutItem, Index: designs.MainTable,
			Doc: "add a service to a client's history; the same client, date and service ID cannot be recorded twice"},
		{ID: GetServiceID, Name: "get a service", Op: designs.GetItem, Index: designs.MainTable,
			Doc: "read one service by client, date and service ID, strongly consistent"},
		{ID: ListHistoryID, Name: "list a client's history", Op: designs.Query, Index: designs.MainTable, Pages: true,
			Doc: "the client's services, newest service date first, paged"},
		{ID: UpdateServiceID, Name: "update a service", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "change a service's kind, units and notes in place; its date and voucher stay"},
		{ID: RescheduleServiceID, Name: "change a service's date", Op: designs.TransactWriteItems, Index: designs.MainTable, MaxActions: 2,
			Doc: "move a service to another date: delete and put in one transaction, since the date is part of both sort keys"},
		{ID: DeleteServiceID, Name: "delete a service", Op: designs.DeleteItem, Index: designs.MainTable,
			Doc: "remove a service from the history and from every index"},
		{ID: ReportPeriodID, Name: "report a year, month or day", Op: designs.Query, Index: ByYear, Pages: true,
			Doc: "every service of a year, of a month (begins_with YYYY-MM) or of a day (begins_with YYYY-MM-DD), in date order, paged"},
		{ID: ReportRangeID, Name: "report a date range", Op: designs.Query, Index: ByYear, Pages: true,
			Doc: "every service between two dates of the same year, inclusive, in date order, paged"},
		{ID: IssueVoucherID, Name: "issue a voucher", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "attach a voucher to a service and set the sparse keys, which puts it in AwaitingVoucher; once per service"},
		{ID: FulfilVoucherID, Name: "fulfil a voucher", Op: designs.UpdateItem, Index: designs.MainTable,
			Doc: "mark the voucher fulfilled and REMOVE the sparse keys, which takes the service out of AwaitingVoucher"},
		{ID: ListAwaitingVouchersID, Name: "list services awaiting voucher fulfilment", Op: designs.Query, Index: AwaitingVoucher, Pages: true,
			Doc: "a program's services whose voucher is issued and not fulfilled, oldest issue first, paged"},
	},
}
