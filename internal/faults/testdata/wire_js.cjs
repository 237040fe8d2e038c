// Asks ddbharness local --limits, with the AWS SDK for JavaScript v3, what
// DynamoDB's wire says where an endpoint that rewrote answers would differ
// (the same steps as wire_boto3.py), and prints one JSON object of what
// came back.
//
// usage: node wire_js.cjs ENDPOINT TABLE SDK_PREFIX
const path = require("path");
const [endpoint, table, prefix] = process.argv.slice(2);
const ddb = require(path.join(prefix, "node_modules", "@aws-sdk", "client-dynamodb"));
const c = new ddb.DynamoDBClient({
  endpoint, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: "ddbharness", secretAccessKey: "ddbharness" },
});

async function refused(input) {
  try {
    await c.send(new ddb.PutItemCommand({ TableName: table, ...input }));
    return "written";
  } catch (e) {
    return e.name;
  }
}

(async () => {
  await c.send(new ddb.CreateTableCommand({
    TableName: table, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  }));
  const got = {};
  const q = await c.send(new ddb.QueryCommand({ TableName: table, KeyConditionExpression: "pk = :p", ExpressionAttributeValues: { ":p": { S: "none" } } }));
  got.queryCount = q.Count === undefined ? null : q.Count;
  got.queryScanned = q.ScannedCount === undefined ? null : q.ScannedCount;
  const s = await c.send(new ddb.ScanCommand({ TableName: table }));
  got.scanCount = s.Count === undefined ? null : s.Count;

  got.updatedOld = await refused({ Item: { pk: { S: "rv" } }, ReturnValues: "UPDATED_OLD" });
  got.allNew = await refused({ Item: { pk: { S: "rv" } }, ReturnValues: "ALL_NEW" });
  const after = await c.send(new ddb.GetItemCommand({ TableName: table, Key: { pk: { S: "rv" } }, ConsistentRead: true }));
  got.afterRefusals = after.Item !== undefined;
  await c.send(new ddb.PutItemCommand({ TableName: table, Item: { pk: { S: "rv" }, n: { N: "1.50" } } }));
  const old = await c.send(new ddb.PutItemCommand({ TableName: table, Item: { pk: { S: "rv" } }, ReturnValues: "ALL_OLD", ReturnConsumedCapacity: "TOTAL" }));
  got.allOld = old.Attributes;
  got.totalKeys = Object.keys(old.ConsumedCapacity).filter((k) => old.ConsumedCapacity[k] !== undefined).sort();
  const none = await c.send(new ddb.PutItemCommand({ TableName: table, Item: { pk: { S: "rv" } } }));
  got.noneKeys = Object.keys(none).filter((k) => k !== "$metadata" && none[k] !== undefined).sort();

  try {
    await c.send(new ddb.PutItemCommand({ TableName: table, Item: { pk: { S: "big" }, v: { S: "x".repeat(17 * 1024 * 1024) } } }));
    got.tooLarge = 200;
  } catch (e) {
    got.tooLarge = e.$metadata ? e.$metadata.httpStatusCode : e.name;
  }
  console.log(JSON.stringify(got));
})().catch((e) => { console.error(e); process.exit(1); });
