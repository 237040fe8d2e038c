package ddbtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/ddbharness/ddbharness/designs"
)

// WireSchema is WireCorpus's table: keys PK and SK, and a GSI ByG on G.
var WireSchema = designs.Schema{PK: "PK", SK: "SK", GSIs: []designs.Index{{Name: "ByG", PK: "G"}}}

// WireCall is one request of WireCorpus: an operation and its body, {T}
// standing for the table's name and {U} for the second table's
// (WireTables). The answer to a call naming both is compared with its
// tables in one order (tableOrdered).
type WireCall struct{ Op, Body string }

// WireTables are the tables WireCorpus names for table: {T} and {U}, both
// made alike (WireSchema).
func WireTables(table string) [2]string { return [2]string{table, table + "-u"} }

// big is an attribute value of n bytes of text.
func big(n int) string { return `{"S":"` + strings.Repeat("x", n) + `"}` }

// WireCorpus is a run of requests over every data-plane operation and its
// options, valid and invalid, in an order whose answers depend on the
// writes before them. Each is sent to DynamoDB Local directly and through
// an endpoint in front of it (bench/endpoint), on tables made alike
// (WireSchema, WireTables) for each, to show that every answer is the
// same.
var WireCorpus = []WireCall{
	// Reads of nothing: Count and ScannedCount 0 are in the answer.
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"none"}}}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"none"}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"Scan", `{"TableName":"{T}"}`},
	{"Scan", `{"TableName":"{T}","Select":"COUNT","ReturnConsumedCapacity":"INDEXES"}`},
	{"GetItem", `{"TableName":"{T}","Key":{"PK":{"S":"none"},"SK":{"S":"1"}}}`},
	{"GetItem", `{"TableName":"{T}","Key":{"PK":{"S":"none"},"SK":{"S":"1"}},"ReturnConsumedCapacity":"TOTAL"}`},

	// Puts: numbers spelt as sent, nested too; ReturnValues valid and not.
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"},"G":{"S":"g"},"n":{"N":"1.50"},"l":{"L":[{"N":"01.0"},{"M":{"x":{"N":"-0"}}}]},"ns":{"NS":["1","2.0"]}}}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"},"G":{"S":"g"},"n":{"N":"2"}},"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"TOTAL"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"},"n":{"N":"3"}},"ReturnValues":"UPDATED_OLD"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"},"n":{"N":"3"}},"ReturnValues":"ALL_NEW"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"},"n":{"N":"3"}},"ReturnValues":"EVERYTHING"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"},"n":{"N":"3"}},"ReturnValues":"NONE","ReturnConsumedCapacity":"INDEXES"}`},
	{"GetItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"ConsistentRead":true}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"2"},"G":{"S":"g"},"m":{"M":{"deep":{"L":[{"N":"1e2"},{"N":"0.000"}]}}}},"ReturnConsumedCapacity":"NONE"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"b"},"SK":{"S":"1"}}}`},

	// Failed conditions, with and without the image on failure.
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValuesOnConditionCheckFailure":"NONE"}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"a"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValuesOnConditionCheckFailure":"ALL_NEW"}`},
	{"DeleteItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"ConditionExpression":"n = :v","ExpressionAttributeValues":{":v":{"N":"9"}}}`},
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"UpdateExpression":"SET n = :v","ConditionExpression":"n = :v","ExpressionAttributeValues":{":v":{"N":"9"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`},

	// Updates: every ReturnValues, and one DynamoDB refuses.
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"UpdateExpression":"SET n = n + :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`},
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"UpdateExpression":"SET n = n + :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"ALL_NEW","ReturnConsumedCapacity":"TOTAL"}`},
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"UpdateExpression":"SET n = n + :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"ALL_OLD"}`},
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"UpdateExpression":"SET n = n + :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"UPDATED_OLD"}`},
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"UpdateExpression":"SET n = n + :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"UPDATED_NEW","ReturnConsumedCapacity":"INDEXES"}`},
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"1"}},"UpdateExpression":"SET n = n + :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"EVERYTHING"}`},
	{"UpdateItem", `{"TableName":"{T}","Key":{"PK":{"S":"c"},"SK":{"S":"1"}},"UpdateExpression":"SET l = :l","ExpressionAttributeValues":{":l":{"L":[{"N":"1.10"}]}},"ReturnValues":"ALL_NEW"}`},

	// Deletes.
	{"DeleteItem", `{"TableName":"{T}","Key":{"PK":{"S":"b"},"SK":{"S":"1"}},"ReturnValues":"ALL_NEW"}`},
	{"DeleteItem", `{"TableName":"{T}","Key":{"PK":{"S":"b"},"SK":{"S":"1"}},"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"TOTAL"}`},
	{"DeleteItem", `{"TableName":"{T}","Key":{"PK":{"S":"b"},"SK":{"S":"1"}}}`},

	// Queries and scans: Select, projections, limits and pages, indexes.
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":1}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":1,"ExclusiveStartKey":{"PK":{"S":"a"},"SK":{"S":"1"}}}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ProjectionExpression":"n, l"}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ProjectionExpression":"#m.deep","ExpressionAttributeNames":{"#m":"m"},"ReturnConsumedCapacity":"TOTAL"}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Select":"COUNT"}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Select":"SPECIFIC_ATTRIBUTES","ProjectionExpression":"SK"}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Select":"EVERYTHING"}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","FilterExpression":"n > :z","ExpressionAttributeValues":{":p":{"S":"a"},":z":{"N":"100"}},"ReturnConsumedCapacity":"INDEXES"}`},
	{"Query", `{"TableName":"{T}","IndexName":"ByG","KeyConditionExpression":"G = :g","ExpressionAttributeValues":{":g":{"S":"g"}},"ReturnConsumedCapacity":"INDEXES"}`},
	{"Query", `{"TableName":"{T}","IndexName":"ByG","KeyConditionExpression":"G = :g","ExpressionAttributeValues":{":g":{"S":"g"}},"ProjectionExpression":"n","ReturnConsumedCapacity":"TOTAL"}`},
	{"Query", `{"TableName":"{T}","IndexName":"ByG","KeyConditionExpression":"G = :g","ExpressionAttributeValues":{":g":{"S":"none"}},"ConsistentRead":true}`},
	{"Query", `{"TableName":"{T}","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":0}`},
	{"Scan", `{"TableName":"{T}","Limit":1}`},
	{"Scan", `{"TableName":"{T}","ProjectionExpression":"l","ReturnConsumedCapacity":"TOTAL"}`},
	{"Scan", `{"TableName":"{T}","FilterExpression":"attribute_exists(nothing)"}`},
	{"Scan", `{"TableName":"{T}","Segment":0,"TotalSegments":2}`},
	{"Scan", `{"TableName":"{T}","IndexName":"ByG","Select":"ALL_PROJECTED_ATTRIBUTES"}`},
	{"GetItem", `{"TableName":"{T}","Key":{"PK":{"S":"a"},"SK":{"S":"2"}},"ProjectionExpression":"m.deep[1]","ReturnConsumedCapacity":"INDEXES"}`},

	// Batches.
	{"BatchWriteItem", `{"RequestItems":{"{T}":[{"PutRequest":{"Item":{"PK":{"S":"d"},"SK":{"S":"1"},"n":{"N":"7.70"}}}},{"PutRequest":{"Item":{"PK":{"S":"d"},"SK":{"S":"2"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"c"},"SK":{"S":"1"}}}}]}}`},
	{"BatchWriteItem", `{"RequestItems":{"{T}":[{"PutRequest":{"Item":{"PK":{"S":"d"},"SK":{"S":"3"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`},
	// A batch's numbers reach Local spelt as sent, nested too.
	{"BatchWriteItem", `{"RequestItems":{"{T}":[{"PutRequest":{"Item":{"PK":{"S":"bn"},"SK":{"S":"1"},"l":{"L":[{"N":"01.0"},{"M":{"x":{"N":"-0"}}}]},"ns":{"NS":["1e2","3.0"]}}}}]}}`},
	{"GetItem", `{"TableName":"{T}","Key":{"PK":{"S":"bn"},"SK":{"S":"1"}},"ConsistentRead":true}`},
	{"BatchWriteItem", `{"RequestItems":{"{T}":[{"PutRequest":{"Item":{"PK":{"S":"d"},"SK":{"S":"3"}}}}]},"ReturnConsumedCapacity":"INDEXES","ReturnItemCollectionMetrics":"SIZE"}`},
	{"BatchGetItem", `{"RequestItems":{"{T}":{"Keys":[{"PK":{"S":"d"},"SK":{"S":"1"}},{"PK":{"S":"none"},"SK":{"S":"1"}}]}}}`},
	{"BatchGetItem", `{"RequestItems":{"{T}":{"Keys":[{"PK":{"S":"d"},"SK":{"S":"1"}},{"PK":{"S":"a"},"SK":{"S":"1"}}],"ProjectionExpression":"n"}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"BatchGetItem", `{"RequestItems":{"{T}":{"Keys":[{"PK":{"S":"d"},"SK":{"S":"1"}}],"ProjectionExpression":"#n","ExpressionAttributeNames":{"#n":"n"},"ConsistentRead":true}},"ReturnConsumedCapacity":"INDEXES"}`},

	// Transactions. A TransactItems that is no list: the SDK's input
	// cannot hold it, so it passes through and Local refuses it.
	{"TransactWriteItems", `{"TransactItems":""}`},
	{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"{T}","Item":{"PK":{"S":"e"},"SK":{"S":"1"},"n":{"N":"1.0"}}}},{"Update":{"TableName":"{T}","Key":{"PK":{"S":"e"},"SK":{"S":"2"}},"UpdateExpression":"SET n = :v","ExpressionAttributeValues":{":v":{"N":"2.0"}}}}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"{T}","Item":{"PK":{"S":"e"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)"}},{"ConditionCheck":{"TableName":"{T}","Key":{"PK":{"S":"e"},"SK":{"S":"2"}},"ConditionExpression":"n = :v","ExpressionAttributeValues":{":v":{"N":"2.0"}}}}]}`},
	{"TransactWriteItems", `{"TransactItems":[{"Delete":{"TableName":"{T}","Key":{"PK":{"S":"e"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}},{"Put":{"TableName":"{T}","Item":{"PK":{"S":"e"},"SK":{"S":"3"}},"ConditionExpression":"attribute_not_exists(PK)"}}]}`},
	{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"{T}","Item":{"PK":{"S":"e"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValuesOnConditionCheckFailure":"EVERYTHING"}}]}`},
	{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"{T}","Key":{"PK":{"S":"e"},"SK":{"S":"1"}}}},{"Get":{"TableName":"{T}","Key":{"PK":{"S":"none"},"SK":{"S":"1"}},"ProjectionExpression":"n"}}]}`},
	{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"{T}","Key":{"PK":{"S":"e"},"SK":{"S":"1"}}}}],"ReturnConsumedCapacity":"INDEXES"}`},
	{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"{T}","Key":{"PK":{"S":"e"},"SK":{"S":"1"}}}}],"ReturnConsumedCapacity":"TOTAL"}`},

	// PartiQL: statements on one item, a partition and the table, with
	// parameters, and one DynamoDB Local refuses (none paged: a NextToken
	// holds the time it was made).
	{"ExecuteStatement", `{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'p', 'SK': ?, 'n': 1.50, 'l': [1, 'x'], 'm': {'k': true}}","Parameters":[{"S":"1"}]}`},
	{"ExecuteStatement", `{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'p', 'SK': '1'}"}`},
	{"ExecuteStatement", `{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': ('p'), 'SK': '2', 'n': (5), 'l': [(1), ((2))]}"}`},
	{"ExecuteStatement", `{"Statement":"SELECT * FROM \"{T}\" WHERE PK = ('p') AND SK = (?)","Parameters":[{"S":"2"}]}`},
	{"ExecuteStatement", `{"Statement":"SELECT * FROM \"{T}\" WHERE PK = ? AND SK = ?","Parameters":[{"S":"p"},{"S":"1"}],"ConsistentRead":true,"ReturnConsumedCapacity":"TOTAL"}`},
	{"ExecuteStatement", `{"Statement":"SELECT SK FROM \"{T}\" WHERE \"PK\" = 'p'","ReturnConsumedCapacity":"INDEXES"}`},
	{"ExecuteStatement", `{"Statement":"SELECT * FROM \"{T}\".\"ByG\" WHERE G = 'none'"}`},
	{"ExecuteStatement", `{"Statement":"SELECT PK FROM \"{T}\" WHERE n > 0"}`},
	{"ExecuteStatement", `{"Statement":"UPDATE \"{T}\" SET n = n + ? SET G = 'g' WHERE PK = 'p' AND SK = '1' RETURNING ALL NEW *","Parameters":[{"N":"1"}]}`},
	{"ExecuteStatement", `{"Statement":"DELETE FROM \"{T}\" WHERE PK = 'p' AND SK = '1' RETURNING ALL OLD *"}`},
	{"ExecuteStatement", `{"Statement":"DELETE FROM \"{T}\" WHERE PK = 'p'"}`},
	{"ExecuteStatement", `{"Statement":"SELEKT * FROM \"{T}\""}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'q', 'SK': '1'}"},{"Statement":"UPDATE \"{T}\" SET n = ? WHERE PK = 'q' AND SK = '2'","Parameters":[{"N":"2"}]}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"SELECT * FROM \"{T}\" WHERE PK = 'q' AND SK = '1'"},{"Statement":"SELECT n FROM \"{T}\" WHERE PK = 'q' AND SK = '2'"}]}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'q', 'SK': '1'}"}]}`},
	// PartiQL that names no single item where DynamoDB wants one, which
	// it refuses (an UPDATE without the whole key, an EXISTS outside a
	// transaction, a transaction's SELECT of a partition, its UPDATE
	// without the whole key); sets, and an OR in parentheses beside the
	// whole key; and EXISTS in a transaction, held and failed.
	{"ExecuteStatement", `{"Statement":"UPDATE \"{T}\" SET n = 5 WHERE PK = 'q'"}`},
	{"ExecuteStatement", `{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'q', 'SK': '2', 'n': 2, 'ss': <<'a', ?>>, 'ns': <<1, +2.50>>}","Parameters":[{"S":"b"}]}`},
	{"ExecuteStatement", `{"Statement":"UPDATE \"{T}\" SET n = 3 WHERE PK = 'q' AND SK = '2' AND (n = 2 OR n = 9) RETURNING ALL OLD *"}`},
	{"ExecuteStatement", `{"Statement":"EXISTS(SELECT * FROM \"{T}\" WHERE PK = 'q' AND SK = '1')"}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"SELECT * FROM \"{T}\" WHERE PK = 'q'"}]}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"UPDATE \"{T}\" SET n = 7 WHERE PK = 'q'"}]}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"EXISTS(SELECT * FROM \"{T}\" WHERE PK = 'q' AND SK = '2' AND n = 2)"},{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'q', 'SK': '3'}"}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"exists (select n from \"{T}\" where PK = 'q' and SK = '2' and n = 9)"},{"Statement":"DELETE FROM \"{T}\" WHERE PK = 'q' AND SK = '3'"}]}`},

	// A table named by its ARN.
	{"GetItem", `{"TableName":"arn:aws:dynamodb:ddblocal:000000000000:table/{T}","Key":{"PK":{"S":"d"},"SK":{"S":"1"}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"PutItem", `{"TableName":"arn:aws:dynamodb:ddblocal:000000000000:table/{T}","Item":{"PK":{"S":"g"},"SK":{"S":"1"}},"ReturnValues":"ALL_OLD"}`},
	{"BatchWriteItem", `{"RequestItems":{"arn:aws:dynamodb:ddblocal:000000000000:table/{T}":[{"PutRequest":{"Item":{"PK":{"S":"g"},"SK":{"S":"2"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`},
	{"BatchGetItem", `{"RequestItems":{"arn:aws:dynamodb:ddblocal:000000000000:table/{T}":{"Keys":[{"PK":{"S":"g"},"SK":{"S":"1"}}],"ProjectionExpression":"SK"}}}`},

	// Calls spanning two tables, each table's share decided by its own
	// emulator: batches (one Local refuses whole), transactions committed
	// and cancelled, with images and capacity asked and not.
	{"BatchWriteItem", `{"RequestItems":{"{U}":[{"PutRequest":{"Item":{"PK":{"S":"x"},"SK":{"S":"1"},"n":{"N":"1.0"}}}}],"{T}":[{"PutRequest":{"Item":{"PK":{"S":"x"},"SK":{"S":"1"},"G":{"S":"g"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"d"},"SK":{"S":"2"}}}}]},"ReturnConsumedCapacity":"TOTAL","ReturnItemCollectionMetrics":"SIZE"}`},
	{"BatchWriteItem", `{"RequestItems":{"{T}":[{"PutRequest":{"Item":{"PK":{"S":"x"},"SK":{"S":"2"}}}}],"{U}":[{"PutRequest":{"Item":{"PK":{"S":"x"},"SK":{"S":"2"},"l":{"L":[{"N":"01.0"}]}}}}]},"ReturnConsumedCapacity":"INDEXES"}`},
	{"BatchWriteItem", `{"RequestItems":{"{T}":[{"PutRequest":{"Item":{"PK":{"S":"x"},"SK":{"S":"3"}}}}],"{U}":[{"PutRequest":{"Item":{"PK":{"S":"x"}}}}]}}`},
	{"GetItem", `{"TableName":"{T}","Key":{"PK":{"S":"x"},"SK":{"S":"3"}},"ConsistentRead":true}`},
	{"BatchGetItem", `{"RequestItems":{"{T}":{"Keys":[{"PK":{"S":"x"},"SK":{"S":"1"}},{"PK":{"S":"none"},"SK":{"S":"1"}}],"ProjectionExpression":"n"},"{U}":{"Keys":[{"PK":{"S":"x"},"SK":{"S":"1"}}],"ConsistentRead":true}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"BatchGetItem", `{"RequestItems":{"{U}":{"Keys":[{"PK":{"S":"x"},"SK":{"S":"2"}}]},"{T}":{"Keys":[{"PK":{"S":"x"},"SK":{"S":"2"}}],"ProjectionExpression":"#s","ExpressionAttributeNames":{"#s":"SK"}}},"ReturnConsumedCapacity":"INDEXES"}`},
	{"BatchGetItem", `{"RequestItems":{"{U}":{"Keys":[{"PK":{"S":"x"},"SK":{"S":"2"}}]},"arn:aws:dynamodb:ddblocal:000000000000:table/{T}":{"Keys":[{"PK":{"S":"x"},"SK":{"S":"1"}}]}}}`},
	{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"{U}","Item":{"PK":{"S":"y"},"SK":{"S":"1"},"n":{"N":"1.50"}}}},{"Update":{"TableName":"{T}","Key":{"PK":{"S":"y"},"SK":{"S":"1"}},"UpdateExpression":"SET n = :v","ExpressionAttributeValues":{":v":{"N":"2.0"}}}},{"ConditionCheck":{"TableName":"{U}","Key":{"PK":{"S":"x"},"SK":{"S":"1"}},"ConditionExpression":"attribute_exists(PK)"}}],"ReturnConsumedCapacity":"INDEXES","ReturnItemCollectionMetrics":"SIZE"}`},
	{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"{T}","Item":{"PK":{"S":"y"},"SK":{"S":"2"}}}},{"Delete":{"TableName":"{U}","Key":{"PK":{"S":"y"},"SK":{"S":"1"}},"ConditionExpression":"n = :v","ExpressionAttributeValues":{":v":{"N":"9"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}},{"Put":{"TableName":"{U}","Item":{"PK":{"S":"x"},"SK":{"S":"1"}},"ConditionExpression":"attribute_not_exists(PK)"}}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"{U}","Key":{"PK":{"S":"y"},"SK":{"S":"1"}}}},{"Get":{"TableName":"{T}","Key":{"PK":{"S":"y"},"SK":{"S":"1"}},"ProjectionExpression":"n"}},{"Get":{"TableName":"{U}","Key":{"PK":{"S":"none"},"SK":{"S":"1"}}}}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"{T}","Key":{"PK":{"S":"y"},"SK":{"S":"2"}}}},{"Get":{"TableName":"{U}","Key":{"PK":{"S":"x"},"SK":{"S":"2"}}}}]}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"INSERT INTO \"{U}\" VALUE {'PK': 'z', 'SK': '1'}"},{"Statement":"UPDATE \"{T}\" SET n = ? WHERE PK = 'z' AND SK = '1'","Parameters":[{"N":"3"}]}]}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"SELECT * FROM \"{U}\" WHERE PK = 'z' AND SK = '1'"},{"Statement":"SELECT n FROM \"{T}\" WHERE PK = 'z' AND SK = '1'"}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"ExecuteTransaction", `{"TransactStatements":[{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'z', 'SK': '2'}"},{"Statement":"INSERT INTO \"{U}\" VALUE {'PK': 'z', 'SK': '1'}"}]}`},

	// PartiQL batches: a statement per item, on one table and two; a
	// condition failed and an item already there, each answered in its
	// place; and two Local refuses whole (reads and writes mixed, an item
	// named twice).
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"INSERT INTO \"{U}\" VALUE {'PK': 'w', 'SK': '1', 'n': 1.50}"},{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'x', 'SK': '1'}"},{"Statement":"UPDATE \"{T}\" SET n = ? WHERE PK = 'w' AND SK = '2'","Parameters":[{"N":"2"}]},{"Statement":"DELETE FROM \"{U}\" WHERE PK = 'x' AND SK = '2'"}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM \"{U}\" WHERE PK = 'w' AND SK = '1'","ConsistentRead":true},{"Statement":"SELECT n FROM \"{T}\" WHERE PK = ? AND SK = ?","Parameters":[{"S":"w"},{"S":"2"}]},{"Statement":"SELECT * FROM \"{T}\" WHERE PK = 'none' AND SK = '1'"}]}`},
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"UPDATE \"{T}\" SET n = 5 WHERE PK = 'w' AND SK = '2' AND n = 9","ReturnValuesOnConditionCheckFailure":"ALL_OLD"},{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'x', 'SK': '2'}"},{"Statement":"INSERT INTO \"{T}\" VALUE {'PK': 'w', 'SK': '3'}"}]}`},
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM \"{T}\" WHERE PK = 'w' AND SK = '2'"}]}`},
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM \"{T}\" WHERE PK = 'w' AND SK = '2'"},{"Statement":"INSERT INTO \"{U}\" VALUE {'PK': 'm', 'SK': '1'}"}]}`},
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"UPDATE \"{T}\" SET n = 6 WHERE PK = 'w' AND SK = '2'"},{"Statement":"DELETE FROM \"{T}\" WHERE PK = 'w' AND SK = '2'"}]}`},
	// Statements of a batch that name no single item, or that cannot be
	// read, each answered in its place beside the others, which run.
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM \"{T}\" WHERE PK = 'w' AND SK = '2'"},{"Statement":"SELECT * FROM \"{U}\" WHERE PK = 'w'"},{"Statement":"SELEKT * FROM \"{T}\""}],"ReturnConsumedCapacity":"TOTAL"}`},
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"UPDATE \"{T}\" SET n = 3 WHERE PK = 'w'"},{"Statement":"INSERT INTO \"{U}\" VALUE {'PK': 'v', 'SK': '1'}"},{"Statement":"EXISTS(SELECT * FROM \"{T}\" WHERE PK = 'w' AND SK = '2')"},{"Statement":"DELETE FROM \"{T}\" WHERE PK = 'w'"}]}`},
	{"BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM \"{T}\""}]}`},
	{"Scan", `{"TableName":"{U}","ConsistentRead":true}`},

	// Keys DynamoDB Local cannot take, and sizes at and over the item limit.
	{"PutItem", "{\"TableName\":\"{T}\",\"Item\":{\"PK\":{\"S\":\"\xff\xfe\"},\"SK\":{\"S\":\"1\"}}}"},
	{"PutItem", "{\"TableName\":\"{T}\",\"Item\":{\"PK\":{\"S\":\"\xff\xfd\"},\"SK\":{\"S\":\"1\"}}}"},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"f"},"SK":{"S":"1"},"v":` + big(400*1024-12) + `}}`},
	{"PutItem", `{"TableName":"{T}","Item":{"PK":{"S":"f"},"SK":{"S":"2"},"v":` + big(400*1024) + `}}`},
	{"GetItem", `{"TableName":"{T}","Key":{"PK":{"S":"f"},"SK":{"S":"1"}},"ProjectionExpression":"PK"}`},
	{"Scan", `{"TableName":"{T}","Select":"COUNT"}`},
}

// WireAnswer is one answer: its status and body, the table's name
// written {T}.
type WireAnswer struct {
	Status int
	Body   string
}

// SendWire posts c, for table (and its second, WireTables), to url, and
// reads its answer (at most 32 MiB), checking its X-Amz-Crc32 as SDKs do.
func SendWire(client *http.Client, url, table string, c WireCall) (WireAnswer, error) {
	u := WireTables(table)[1]
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(strings.NewReplacer("{T}", table, "{U}", u).Replace(c.Body))))
	if err != nil {
		return WireAnswer{}, err
	}
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+c.Op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := client.Do(req)
	if err != nil {
		return WireAnswer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return WireAnswer{}, err
	}
	if crc := resp.Header.Get("X-Amz-Crc32"); crc != "" && crc != fmt.Sprint(crc32.ChecksumIEEE(b)) {
		return WireAnswer{}, fmt.Errorf("%s: X-Amz-Crc32 %s is not the body's", c.Op, crc)
	}
	got := strings.NewReplacer(u, "{U}", table, "{T}").Replace(string(b))
	if strings.Contains(c.Body, "{U}") {
		got = tableOrdered(got)
	}
	return WireAnswer{resp.StatusCode, got}, nil
}

// tableOrdered is answer b, to a call naming both of WireTables' tables,
// with its tables in one order: DynamoDB Local orders a multi-table
// answer's tables (ConsumedCapacity's entries, the members of Responses,
// UnprocessedItems, UnprocessedKeys and ItemCollectionMetrics) by its own
// hash of their names, which differ between the two sides. Every other
// byte stays as Local wrote it; b unchanged when it is no such object.
func tableOrdered(b string) string {
	top, ok := members(b)
	if !ok {
		return b
	}
	for i, m := range top {
		switch m.key {
		case "ConsumedCapacity":
			var elems []json.RawMessage
			if json.Unmarshal([]byte(m.val), &elems) != nil {
				continue
			}
			slices.SortStableFunc(elems, func(x, y json.RawMessage) int {
				var a, b struct{ TableName string }
				json.Unmarshal(x, &a)
				json.Unmarshal(y, &b)
				return strings.Compare(a.TableName, b.TableName)
			})
			parts := make([]string, len(elems))
			for j, e := range elems {
				parts[j] = string(e)
			}
			top[i].val = "[" + strings.Join(parts, ",") + "]"
		case "Responses", "UnprocessedItems", "UnprocessedKeys", "ItemCollectionMetrics":
			if ms, ok := members(m.val); ok {
				slices.SortStableFunc(ms, func(x, y rawMember) int { return strings.Compare(x.key, y.key) })
				top[i].val = joinMembers(ms)
			}
		}
	}
	return joinMembers(top)
}

type rawMember struct{ key, val string }

// members are the members of the compact JSON object b, in order, each
// value as written; false when b is no object.
func members(b string) ([]rawMember, bool) {
	d := json.NewDecoder(strings.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var ms []rawMember
	for d.More() {
		t, err := d.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return nil, false
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return nil, false
		}
		ms = append(ms, rawMember{k, string(v)})
	}
	return ms, true
}

func joinMembers(ms []rawMember) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		k, _ := json.Marshal(m.key)
		parts[i] = string(k) + ":" + m.val
	}
	return "{" + strings.Join(parts, ",") + "}"
}
