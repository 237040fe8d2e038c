package modelfile

import (
	"encoding/json"
	"fmt"
	"github.com/ddbharness/ddbharness/internal/workbench/mcp"
)

// The DynamoDB MCP server's dynamodb_data_model.json: tables in
// CreateTable's shape, sample items as BatchWriteItem's PutRequests by
// table, and access patterns with their operation and a CLI command.
// Format: https://github.com/awslabs/mcp/blob/main/src/dynamodb-mcp-server/awslabs/dynamodb_mcp_server/prompts/json_generation_guide.md
type mcpModel struct {
	Tables []struct {
		TableName            string
		AttributeDefinitions []Attribute
		KeySchema            []mcpKey
		GlobalSecondaryIndexes,
		LocalSecondaryIndexes []struct {
			IndexName  string
			KeySchema  []mcpKey
			Projection Projection
		}
		BillingMode           string
		ProvisionedThroughput *struct{ ReadCapacityUnits, WriteCapacityUnits int64 }
	} `json:"tables"`
	Items map[string][]struct {
		PutRequest struct {
			Item json.RawMessage
		}
	} `json:"items"`
	AccessPatterns []mcp.AccessPattern `json:"access_patterns"`
}

type mcpKey struct{ AttributeName, KeyType string }

// fromMCP reads an MCP data model as a Workbench model; ok is false when
// data is not one (it has no "tables" list). Each table keeps its access
// patterns, which Infer generates (modelPatterns).
func fromMCP(data []byte) (m ModelFile, ok bool, err error) {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil || probe["tables"] == nil || probe["DataModel"] != nil {
		return m, false, nil
	}
	var in mcpModel
	if err := json.Unmarshal(data, &in); err != nil {
		return m, true, PathErr("$", "a DynamoDB MCP data model (dynamodb_data_model.json) the import cannot read: "+err.Error())
	}
	if err := unmodelledIndexes(probe["tables"]); err != nil {
		return m, true, err
	}
	if err := checkTraffic(in.AccessPatterns); err != nil {
		return m, true, err
	}
	m.ModelName = "dynamodb_data_model"
	for i, t := range in.Tables {
		at := fmt.Sprintf("$.tables[%d]", i)
		typed := func(name string) Attribute {
			for _, a := range t.AttributeDefinitions {
				if a.AttributeName == name {
					return a
				}
			}
			return Attribute{AttributeName: name}
		}
		keys := func(ks []mcpKey, p string, kind indexKind, index string) (KeyAttributes, error) {
			var k KeyAttributes
			var hash, rng []string
			for j, e := range ks {
				switch e.KeyType {
				case "HASH":
					hash = append(hash, e.AttributeName)
				case "RANGE":
					rng = append(rng, e.AttributeName)
				default:
					return k, PathErr(fmt.Sprintf("%s[%d].KeyType", p, j), fmt.Sprintf("%q is no key type DynamoDB has: write HASH or RANGE", e.KeyType))
				}
			}
			if err := multiAttributeKey(p, kind, index, hash, rng); err != nil {
				return k, err
			}
			switch {
			case len(hash) > 1:
				for _, n := range hash {
					k.PartitionKeys = append(k.PartitionKeys, typed(n))
				}
			case len(hash) == 1:
				k.PartitionKey = typed(hash[0])
			}
			switch {
			case len(rng) > 1:
				for _, n := range rng {
					k.SortKeys = append(k.SortKeys, typed(n))
				}
			case len(rng) == 1:
				a := typed(rng[0])
				k.SortKey = &a
			}
			return k, nil
		}
		out := Table{TableName: t.TableName, BillingMode: t.BillingMode}
		if out.KeyAttributes, err = keys(t.KeySchema, at+".KeySchema", tableKey, ""); err != nil {
			return m, true, err
		}
		if p := t.ProvisionedThroughput; p != nil {
			out.ProvisionedCapacity = &CapacitySetting{}
			out.ProvisionedCapacity.ProvisionedThroughput.ReadCapacityUnits = p.ReadCapacityUnits
			out.ProvisionedCapacity.ProvisionedThroughput.WriteCapacityUnits = p.WriteCapacityUnits
		}
		for j, ix := range t.GlobalSecondaryIndexes {
			k, err := keys(ix.KeySchema, fmt.Sprintf("%s.GlobalSecondaryIndexes[%d].KeySchema", at, j), globalKey, ix.IndexName)
			if err != nil {
				return m, true, err
			}
			out.GlobalSecondaryIndexes = append(out.GlobalSecondaryIndexes, Index{IndexName: ix.IndexName, KeyAttributes: k, Projection: ix.Projection})
		}
		for j, ix := range t.LocalSecondaryIndexes {
			k, err := keys(ix.KeySchema, fmt.Sprintf("%s.LocalSecondaryIndexes[%d].KeySchema", at, j), localKey, ix.IndexName)
			if err != nil {
				return m, true, err
			}
			out.LocalSecondaryIndexes = append(out.LocalSecondaryIndexes, Index{IndexName: ix.IndexName, KeyAttributes: k, Projection: ix.Projection})
		}
		for _, it := range in.Items[t.TableName] {
			out.TableData = append(out.TableData, Item{raw: it.PutRequest.Item})
		}
		for _, ap := range in.AccessPatterns {
			// A pattern that names no table (an external service's) is
			// the first table's, so that it is listed, uncovered.
			if ap.Table == t.TableName || ap.Table == "" && i == 0 {
				out.AccessPatterns = append(out.AccessPatterns, ap)
			}
		}
		m.DataModel = append(m.DataModel, out)
	}
	return m, true, nil
}
