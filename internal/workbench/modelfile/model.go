package modelfile

import (
	"encoding/json"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/ddbitem"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
)

// ModelFile is a Workbench model file. Fields Workbench writes that the harness
// has no use for (ModelMetadata's dates, DataAccess) are kept as they are
// on export and ignored on import.
type ModelFile struct {
	ModelName     string    `json:"ModelName"`
	ModelMetadata *Metadata `json:"ModelMetadata,omitempty"`
	DataModel     []Table   `json:"DataModel"`
	// Notes are what Parse skipped: tables it could not import.
	Notes []string `json:"-"`
}

// Metadata is the model's header.
type Metadata struct {
	Author           string `json:"Author,omitempty"`
	DateCreated      string `json:"DateCreated,omitempty"`
	DateLastModified string `json:"DateLastModified,omitempty"`
	Description      string `json:"Description,omitempty"`
	AWSService       string `json:"AWSService,omitempty"`
	Version          string `json:"Version,omitempty"`
	// Harness is what export-model keeps of a design that Workbench has
	// no field for; Workbench models have none.
	Harness *HarnessMetadata `json:"ddbharness,omitempty"`
}

// HarnessMetadata is what export-model writes beside Workbench's own
// fields, for import-model to read back.
type HarnessMetadata struct {
	Design        string `json:"Design,omitempty"`
	TypeAttribute string `json:"TypeAttribute,omitempty"` // the attribute holding each item's entity type
}

// Table is one table of the model.
type Table struct {
	TableName              string           `json:"TableName"`
	KeyAttributes          KeyAttributes    `json:"KeyAttributes"`
	NonKeyAttributes       []Attribute      `json:"NonKeyAttributes,omitempty"`
	TableFacets            []Facet          `json:"TableFacets,omitempty"`
	GlobalSecondaryIndexes []Index          `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  []Index          `json:"LocalSecondaryIndexes,omitempty"`
	TableData              []Item           `json:"TableData,omitempty"`
	DataAccess             map[string]any   `json:"DataAccess,omitempty"`
	BillingMode            string           `json:"BillingMode,omitempty"`
	ProvisionedCapacity    *CapacitySetting `json:"ProvisionedCapacitySettings,omitempty"`
	// Notes are what Parse skipped of the table: blank rows.
	Notes []string `json:"-"`
	// TypeAttr is the type attribute the model's metadata names (an
	// export's), which Infer takes when every sample holds it.
	TypeAttr string `json:"-"`
	// AccessPatterns are the access patterns an MCP data model gives for
	// the table.
	AccessPatterns []mcp.AccessPattern `json:"-"`
}

// CapacitySetting is a provisioned table's throughput.
type CapacitySetting struct {
	ProvisionedThroughput struct {
		ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
		WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
	} `json:"ProvisionedThroughput"`
}

// KeyAttributes is a table's or an index's key. A GSI's key of several
// attributes on one side (a multi-attribute key, from an MCP data model)
// lists them in order in PartitionKeys or SortKeys, and leaves that
// side's PartitionKey or SortKey empty: Workbench's model has one
// attribute per side, so the lists are never written to it.
type KeyAttributes struct {
	PartitionKey  Attribute   `json:"PartitionKey"`
	SortKey       *Attribute  `json:"SortKey,omitempty"`
	PartitionKeys []Attribute `json:"-"`
	SortKeys      []Attribute `json:"-"`
}

// partition is the attributes of k's partition key, in order.
func (k KeyAttributes) partition() []Attribute {
	if len(k.PartitionKeys) > 0 {
		return k.PartitionKeys
	}
	return []Attribute{k.PartitionKey}
}

// sort is the attributes of k's sort key, in order; none without one.
func (k KeyAttributes) sort() []Attribute {
	switch {
	case len(k.SortKeys) > 0:
		return k.SortKeys
	case k.SortKey != nil:
		return []Attribute{*k.SortKey}
	}
	return nil
}

// multi reports whether either side of k has several attributes.
func (k KeyAttributes) multi() bool { return len(k.PartitionKeys) > 0 || len(k.SortKeys) > 0 }

// Attribute is an attribute's name and DynamoDB type (S, N, B, BOOL, M, L,
// SS, NS, BS, NULL).
type Attribute struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

// Facet is one entity's view of the table: the aliases Workbench shows for
// its keys, the attributes it carries and its sample items.
type Facet struct {
	FacetName         string         `json:"FacetName"`
	KeyAttributeAlias KeyAlias       `json:"KeyAttributeAlias"`
	TableData         []Item         `json:"TableData,omitempty"`
	NonKeyAttributes  []string       `json:"NonKeyAttributes,omitempty"`
	DataAccess        map[string]any `json:"DataAccess,omitempty"`
}

// KeyAlias names a facet's keys as its entity calls them.
type KeyAlias struct {
	PartitionKeyAlias string `json:"PartitionKeyAlias"`
	SortKeyAlias      string `json:"SortKeyAlias,omitempty"`
}

// Index is a secondary index.
type Index struct {
	IndexName     string        `json:"IndexName"`
	KeyAttributes KeyAttributes `json:"KeyAttributes"`
	Projection    Projection    `json:"Projection"`
}

// Projection is what an index copies of each item.
type Projection struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// Item is a sample item, each attribute as DynamoDB's JSON writes it
// ({"PK": {"S": "c#1"}}). Parse decodes raw into Attrs, so that a bad
// attribute is refused with its path in the model.
type Item struct {
	Attrs map[string]types.AttributeValue
	raw   json.RawMessage
}

// UnmarshalJSON keeps the item's text for Parse to decode with its path.
func (it *Item) UnmarshalJSON(b []byte) error {
	it.raw = append(json.RawMessage(nil), b...)
	return nil
}

// MarshalJSON writes the item in DynamoDB's JSON.
func (it Item) MarshalJSON() ([]byte, error) { return json.Marshal(ddbitem.JSON(it.Attrs)) }
