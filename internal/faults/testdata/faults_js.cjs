// Meets each fault kind of faults.rules with the AWS SDK for JavaScript
// v3, as a service's own tests would, and prints one JSON object of what
// the client saw (the same steps as faults_boto3.py).
//
// usage: node faults_js.cjs ENDPOINT TABLE SDK_PREFIX
const path = require("path");
const [endpoint, table, prefix] = process.argv.slice(2);
const ddb = require(path.join(prefix, "node_modules", "@aws-sdk", "client-dynamodb"));

const client = (maxAttempts) => new ddb.DynamoDBClient({
  endpoint, region: "us-east-1", maxAttempts,
  credentials: { accessKeyId: "ddbharness", secretAccessKey: "ddbharness" },
});
const once = client(1);
const retrying = client(3);
const key = (pk) => ({ pk: { S: pk } });
const retries = (r) => (r.$metadata && r.$metadata.attempts ? r.$metadata.attempts - 1 : 0);

// failed is the error call throws, as the client sees it; null if it succeeds.
async function failed(call) {
  try {
    await call();
  } catch (e) {
    if (!e.$metadata || !e.$metadata.httpStatusCode) return { code: e.code || e.name };
    return { code: e.name, status: e.$metadata.httpStatusCode,
      reasons: (e.throttlingReasons || e.ThrottlingReasons || []).map((r) => r.reason),
      cancellation: (e.CancellationReasons || []).map((r) => r.Code), retries: retries(e) };
  }
  return null;
}

async function stored(pk) {
  const r = await once.send(new ddb.GetItemCommand({ TableName: table, Key: key(pk), ConsistentRead: true }));
  return r.Item !== undefined;
}

(async () => {
  await once.send(new ddb.CreateTableCommand({ TableName: table, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }], AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }] }));
  const out = {};
  for (const pk of ["throttle", "provisioned", "limit", "e500", "e503"]) {
    const got = await failed(() => once.send(new ddb.GetItemCommand({ TableName: table, Key: key(pk) })));
    const r = await retrying.send(new ddb.GetItemCommand({ TableName: table, Key: key(pk) }));
    got.retried = retries(r);
    out[pk] = got;
  }
  for (const pk of ["tx-conflict", "tx-throttle"]) {
    const got = await failed(() => retrying.send(new ddb.TransactWriteItemsCommand({ TransactItems: [
      { Put: { TableName: table, Item: key(pk) } }, { Put: { TableName: table, Item: key(pk + "-other") } }] })));
    got.written = (await stored(pk)) || (await stored(pk + "-other"));
    out[pk] = got;
  }
  out.single = await failed(() => retrying.send(new ddb.UpdateItemCommand({ TableName: table, Key: key("single"),
    UpdateExpression: "SET n = :one", ExpressionAttributeValues: { ":one": { N: "1" } } })));

  const pks = ["keep-1", "back-1", "keep-2", "back-2"];
  let r = await once.send(new ddb.BatchWriteItemCommand({ RequestItems: { [table]: pks.map((pk) => ({ PutRequest: { Item: key(pk) } })) } }));
  const written = [];
  for (const pk of pks) if (await stored(pk)) written.push(pk);
  out.unprocessedItems = { back: ((r.UnprocessedItems || {})[table] || []).map((w) => w.PutRequest.Item.pk.S), written };

  for (const pk of ["get-1", "get-2"]) await once.send(new ddb.PutItemCommand({ TableName: table, Item: key(pk) }));
  r = await once.send(new ddb.BatchGetItemCommand({ RequestItems: { [table]: { Keys: [key("get-1"), key("get-2")] } } }));
  out.unprocessedKeys = { read: ((r.Responses || {})[table] || []).map((i) => i.pk.S),
    back: (((r.UnprocessedKeys || {})[table] || {}).Keys || []).map((k) => k.pk.S) };

  const add = () => new ddb.UpdateItemCommand({ TableName: table, Key: key("reset"), UpdateExpression: "ADD n :one",
    ExpressionAttributeValues: { ":one": { N: "1" } } });
  const reset = await failed(() => once.send(add()));
  reset.appliedBeforeReset = await stored("reset");
  r = await retrying.send(add());
  reset.retried = retries(r);
  const item = await once.send(new ddb.GetItemCommand({ TableName: table, Key: key("reset"), ConsistentRead: true }));
  reset.n = Number(item.Item.n.N);
  out.reset = reset;

  const start = Date.now();
  await once.send(new ddb.GetItemCommand({ TableName: table, Key: key("slow") }));
  out.slowMillis = Date.now() - start;
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
