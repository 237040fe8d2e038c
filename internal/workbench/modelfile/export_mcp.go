package modelfile

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbharness/ddbharness/designs"
)

// MCPModel is a design as the DynamoDB MCP server's dynamodb_data_model.json
// writes it: its table in CreateTable's shape, sample items as
// BatchWriteItem's PutRequests, and its catalog as access patterns.
type MCPModel struct {
	Tables         []MCPTable                      `json:"tables"`
	Items          map[string][]map[string]MCPItem `json:"items"`
	AccessPatterns []MCPAccessPattern              `json:"access_patterns"`
}

// MCPTable is a CreateTable input.
type MCPTable struct {
	TableName              string         `json:"TableName"`
	AttributeDefinitions   []Attribute    `json:"AttributeDefinitions"`
	KeySchema              []mcpKey       `json:"KeySchema"`
	GlobalSecondaryIndexes []MCPIndex     `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  []MCPIndex     `json:"LocalSecondaryIndexes,omitempty"`
	BillingMode            string         `json:"BillingMode"`
	ProvisionedThroughput  *MCPThroughput `json:"ProvisionedThroughput,omitempty"`
}

// MCPIndex is a secondary index of a CreateTable input.
type MCPIndex struct {
	IndexName             string         `json:"IndexName"`
	KeySchema             []mcpKey       `json:"KeySchema"`
	Projection            Projection     `json:"Projection"`
	ProvisionedThroughput *MCPThroughput `json:"ProvisionedThroughput,omitempty"`
}

// MCPThroughput is a provisioned table's or GSI's capacity.
type MCPThroughput struct{ ReadCapacityUnits, WriteCapacityUnits int64 }

// MCPItem is one PutRequest.
type MCPItem struct {
	Item Item `json:"Item"`
}

// MCPAccessPattern is one catalog entry: with the model's command where
// the design keeps it, else the reason there is none.
type MCPAccessPattern struct {
	Pattern        string `json:"pattern"`
	Description    string `json:"description"`
	Table          string `json:"table,omitempty"`
	Index          string `json:"index,omitempty"`
	Operation      string `json:"dynamodb_operation,omitempty"`
	Implementation string `json:"implementation,omitempty"`
	Reason         string `json:"reason,omitempty"`
}

// ExportMCP writes design d as an MCP data model: its table, the first
// PerFacet items of each entity type among items (the design's fixtures,
// in the order they were seeded, so that entities keep their order), and
// its catalog. A pattern imported from an MCP model keeps its command;
// another is listed with its operation and index and the reason it has
// none (import-model makes its own gets and queries again from the keys,
// and lists the others uncovered).
func ExportMCP(d designs.Design, items []map[string]types.AttributeValue) MCPModel {
	s := d.Schema
	name := cmp.Or(d.Table, d.Name)
	var defs []Attribute
	// key is a KeySchema: each partition key attribute, then each sort
	// key attribute, in order (several on a multi-attribute GSI key).
	key := func(pks, sks []string) []mcpKey {
		var out []mcpKey
		for _, a := range pks {
			out = append(out, mcpKey{AttributeName: a, KeyType: "HASH"})
		}
		for _, a := range sks {
			out = append(out, mcpKey{AttributeName: a, KeyType: "RANGE"})
		}
		for _, k := range out {
			if !slices.ContainsFunc(defs, func(a Attribute) bool { return a.AttributeName == k.AttributeName }) {
				defs = append(defs, keyOf(s, k.AttributeName, "").PartitionKey)
			}
		}
		return out
	}
	t := MCPTable{TableName: name, KeySchema: key(one(s.PK), one(s.SK)), BillingMode: "PAY_PER_REQUEST"}
	var throughput *MCPThroughput
	if s.Billing == types.BillingModeProvisioned {
		t.BillingMode = "PROVISIONED"
		throughput = &MCPThroughput{ReadCapacityUnits: s.RCU, WriteCapacityUnits: s.WCU}
		t.ProvisionedThroughput = throughput
	}
	for _, ix := range s.GSIs {
		t.GlobalSecondaryIndexes = append(t.GlobalSecondaryIndexes, MCPIndex{IndexName: ix.Name, KeySchema: key(ix.PartitionAttrs(), ix.SortAttrs()), Projection: projectionOf(ix), ProvisionedThroughput: throughput})
	}
	for _, ix := range s.LSIs {
		t.LocalSecondaryIndexes = append(t.LocalSecondaryIndexes, MCPIndex{IndexName: ix.Name, KeySchema: key(one(s.PK), one(ix.SK)), Projection: projectionOf(ix)})
	}
	t.AttributeDefinitions = defs
	out := MCPModel{Tables: []MCPTable{t}, Items: map[string][]map[string]MCPItem{name: {}}}
	kept := map[string]int{}
	for _, it := range items {
		typ := strings.TrimSuffix(s.ItemType(it, s.PK), "#")
		if kept[typ] >= PerFacet {
			continue
		}
		kept[typ]++
		out.Items[name] = append(out.Items[name], map[string]MCPItem{"PutRequest": {Item: Item{Attrs: it}}})
	}
	for _, p := range d.Patterns {
		ap := MCPAccessPattern{Pattern: string(p.ID), Description: p.Name, Table: name, Operation: string(p.Op), Implementation: p.Command}
		if p.Index != designs.MainTable {
			ap.Index = p.Index
		}
		if p.Command == "" {
			ap.Reason = "written in Go in the design " + d.Name + ", not as one AWS CLI command"
		}
		out.AccessPatterns = append(out.AccessPatterns, ap)
	}
	return out
}

// one is attribute a as a key's list of attributes: none when a is "".
func one(a string) []string {
	if a == "" {
		return nil
	}
	return []string{a}
}

// MarshalIndent is the model as dynamodb_data_model.json holds it.
func (m MCPModel) MarshalIndent() ([]byte, error) { return json.MarshalIndent(m, "", "  ") }
