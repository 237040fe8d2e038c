// Drives ddbharness local --limits with the AWS SDK for JavaScript v3 on a
// table whose GSI has a multi-attribute key, and prints one JSON object of
// what DynamoDB's answers were (the same steps as endpoint_tuple_boto3.py,
// but for the Query, which skips the first sort key attribute).
//
// usage: node endpoint_tuple_js.cjs ENDPOINT TABLE SDK_PREFIX
// SDK_PREFIX is the npm prefix @aws-sdk/client-dynamodb is installed in.
// The GSI ByTenantRegion is keyed by (tenantId, region), sorted by
// (status, createdAt). Writes of one tuple (t1, eu) run on four loops
// until one is throttled naming the GSI, or each loop has made its
// bounded number of calls (then "throttled" is null).
const path = require("path");
const [endpoint, table, prefix] = process.argv.slice(2);
const ddb = require(path.join(prefix, "node_modules", "@aws-sdk", "client-dynamodb"));
const index = "ByTenantRegion";

const client = () => new ddb.DynamoDBClient({
  endpoint, region: "us-east-1", maxAttempts: 2,
  credentials: { accessKeyId: "ddbharness", secretAccessKey: "ddbharness" },
});

const bounded = (s, n = 300) => (typeof s !== "string" ? "" : s.length <= n ? s : s.slice(0, n) + "...");

// Each item is about 4 KB, so each write costs the tuple's GSI partition
// several of its write units: a few writes in flight at once spend them.
async function writes(w, state) {
  const c = client();
  for (let i = 0; i < 200 && state.found === null; i++) {
    try {
      await c.send(new ddb.PutItemCommand({ TableName: table, Item: { pk: { S: `o${w}-${i}` }, tenantId: { S: "t1" }, region: { S: "eu" },
        status: { S: "open" }, createdAt: { N: String(i) }, pad: { S: "x".repeat(4000) } } }));
    } catch (e) {
      const reasons = e.throttlingReasons || e.ThrottlingReasons || [];
      // A table partition the writes share may refuse one first: only the
      // GSI's refusal is what this looks for.
      if (reasons.some((r) => typeof r.reason === "string" && r.reason.startsWith("Index"))) {
        if (state.found === null) {
          state.found = { code: e.name, reasons: reasons.slice(0, 4).map((r) => ({ reason: bounded(r.reason), resource: bounded(r.resource) })),
            retries: (e.$metadata && e.$metadata.attempts ? e.$metadata.attempts - 1 : 0) };
        }
        return;
      }
      if (e.name !== "ThrottlingException" && e.name !== "ProvisionedThroughputExceededException") throw e;
    }
  }
}

(async () => {
  const c = client();
  await c.send(new ddb.CreateTableCommand({ TableName: table, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [["pk", "S"], ["tenantId", "S"], ["region", "S"], ["status", "S"], ["createdAt", "N"]]
      .map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    GlobalSecondaryIndexes: [{ IndexName: index, Projection: { ProjectionType: "ALL" }, KeySchema: [
      { AttributeName: "tenantId", KeyType: "HASH" }, { AttributeName: "region", KeyType: "HASH" },
      { AttributeName: "status", KeyType: "RANGE" }, { AttributeName: "createdAt", KeyType: "RANGE" }] }] }));
  const state = { found: null };
  await Promise.all([0, 1, 2, 3].map((w) => writes(w, state)));

  let query = null;
  try {
    await c.send(new ddb.QueryCommand({ TableName: table, IndexName: index,
      KeyConditionExpression: "#t = :t AND #r = :r AND #c > :c",
      ExpressionAttributeNames: { "#t": "tenantId", "#r": "region", "#c": "createdAt" },
      ExpressionAttributeValues: { ":t": { S: "t1" }, ":r": { S: "eu" }, ":c": { N: "0" } } }));
  } catch (e) {
    query = { code: e.name, message: bounded(e.message) };
  }
  console.log(JSON.stringify({ throttled: state.found, query }));
})().catch((e) => { console.error(e); process.exit(1); });
