// Drives ddbharness local --limits with the AWS SDK for JavaScript v3, as a
// service's own tests would, and prints one JSON object of what
// DynamoDB's answers were (the same steps as endpoint_boto3.py).
//
// usage: node endpoint_js.cjs ENDPOINT TABLE SDK_PREFIX
// SDK_PREFIX is the npm prefix @aws-sdk/client-dynamodb is installed in.
// Each step stops at the answer it looks for, or after a bounded number of
// calls; a step that never sees it reports null.
const path = require("path");
const [endpoint, table, prefix] = process.argv.slice(2);
const ddb = require(path.join(prefix, "node_modules", "@aws-sdk", "client-dynamodb"));

const client = () => new ddb.DynamoDBClient({
  endpoint, region: "us-east-1", maxAttempts: 2,
  credentials: { accessKeyId: "ddbharness", secretAccessKey: "ddbharness" },
});

// until runs step(client, i) on workers concurrent loops, calls times each,
// until one returns something; that is the answer (null if none did).
async function until(workers, calls, step) {
  let found = null;
  const work = async () => {
    const c = client();
    for (let i = 0; i < calls && found === null; i++) {
      const got = await step(c, i);
      if (got !== undefined && got !== null && found === null) found = got;
    }
  };
  await Promise.all(Array.from({ length: workers }, work));
  return found;
}

async function hot(c) {
  try {
    await c.send(new ddb.GetItemCommand({ TableName: table, Key: { pk: { S: "hot" } }, ConsistentRead: true }));
  } catch (e) {
    return { code: e.name, reasons: (e.throttlingReasons || e.ThrottlingReasons || []).map((r) => ({ reason: r.reason, resource: r.resource })),
      retries: (e.$metadata && e.$metadata.attempts ? e.$metadata.attempts - 1 : 0) };
  }
}

async function batch(c, i) {
  const items = Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: { pk: { S: `k${i}-${j}` }, pad: { S: "x".repeat(3000) } } } }));
  let out;
  try {
    out = await c.send(new ddb.BatchWriteItemCommand({ RequestItems: { [table]: items } }));
  } catch (e) {
    if (e.name === "ThrottlingException") return null; // every item's partition spent: the whole batch is refused
    throw e;
  }
  const back = (out.UnprocessedItems || {})[table] || [];
  return back.length ? back.length : null;
}

async function tx(c) {
  try {
    await c.send(new ddb.TransactWriteItemsCommand({ TransactItems: [{ Update: {
      TableName: table, Key: { pk: { S: "tx" } }, UpdateExpression: "ADD n :one", ExpressionAttributeValues: { ":one": { N: "1" } } } }] }));
  } catch (e) {
    const codes = (e.CancellationReasons || []).map((r) => r.Code);
    if (codes.includes("TransactionConflict")) return { code: e.name, reasons: codes };
  }
}

(async () => {
  const c = client();
  await c.send(new ddb.CreateTableCommand({ TableName: table, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }], AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }] }));
  await c.send(new ddb.PutItemCommand({ TableName: table, Item: { pk: { S: "hot" } } }));
  await c.send(new ddb.PutItemCommand({ TableName: table, Item: { pk: { S: "tx" }, n: { N: "0" } } }));
  const throttled = await until(8, 2000, hot);
  const unprocessed = await until(1, 40, batch);
  const conflict = await until(2, 300, tx);
  console.log(JSON.stringify({ throttled, unprocessed, conflict }));
})().catch((e) => { console.error(e); process.exit(1); });
