"""Drives ddbharness local --limits with boto3 on a table whose GSI has a
multi-attribute key, and prints one JSON object of what DynamoDB's
answers were.

usage: python3 endpoint_tuple_boto3.py ENDPOINT TABLE
The GSI ByTenantRegion is keyed by (tenantId, region), sorted by
(status, createdAt). Writes of one tuple (t1, eu) run on four threads
until one is throttled naming the GSI, or each thread has made its
bounded number of calls (then "throttled" is null); then a Query that
gives region without tenantId reports how it was refused.
"""
import json
import sys
import threading

import boto3
import botocore
from botocore.config import Config

endpoint, table = sys.argv[1], sys.argv[2]
index = "ByTenantRegion"


def client():
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id="ddbharness", aws_secret_access_key="ddbharness",
                        config=Config(retries={"mode": "standard", "max_attempts": 2},
                                      connect_timeout=10, read_timeout=30))


def bounded(s, n=300):
    return s if len(s) <= n else s[:n] + "..."


c = client()
c.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
               KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
               AttributeDefinitions=[{"AttributeName": a, "AttributeType": t} for a, t in
                                     [("pk", "S"), ("tenantId", "S"), ("region", "S"), ("status", "S"), ("createdAt", "N")]],
               GlobalSecondaryIndexes=[{"IndexName": index, "Projection": {"ProjectionType": "ALL"}, "KeySchema": [
                   {"AttributeName": "tenantId", "KeyType": "HASH"}, {"AttributeName": "region", "KeyType": "HASH"},
                   {"AttributeName": "status", "KeyType": "RANGE"}, {"AttributeName": "createdAt", "KeyType": "RANGE"}]}])

# Each item is about 4 KB, so each write costs the tuple's GSI partition
# several of its write units: a few writes in flight at once spend them.
found, stop = [], threading.Event()


def writes(w):
    c = client()
    for i in range(200):
        if stop.is_set():
            return
        try:
            c.put_item(TableName=table, Item={"pk": {"S": "o%d-%d" % (w, i)}, "tenantId": {"S": "t1"}, "region": {"S": "eu"},
                                              "status": {"S": "open"}, "createdAt": {"N": str(i)}, "pad": {"S": "x" * 4000}})
        except botocore.exceptions.ClientError as e:
            r = e.response
            reasons = r.get("throttlingReasons", r.get("ThrottlingReasons")) or []
            # A table partition the writes share may refuse one first: only
            # the GSI's refusal is what this looks for.
            if any(x.get("reason", "").startswith("Index") for x in reasons):
                found.append({"code": r["Error"]["Code"],
                              "reasons": [{"reason": bounded(x.get("reason", "")), "resource": bounded(x.get("resource", ""))} for x in reasons[:4]],
                              "retries": r["ResponseMetadata"].get("RetryAttempts", 0)})
                stop.set()
                return
            if r["Error"]["Code"] not in ("ThrottlingException", "ProvisionedThroughputExceededException"):
                raise


threads = [threading.Thread(target=writes, args=(w,)) for w in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()

query = None
try:
    c.query(TableName=table, IndexName=index, KeyConditionExpression="#r = :r",
            ExpressionAttributeNames={"#r": "region"}, ExpressionAttributeValues={":r": {"S": "eu"}})
except botocore.exceptions.ClientError as e:
    query = {"code": e.response["Error"]["Code"], "message": bounded(e.response["Error"].get("Message", ""))}

print(json.dumps({"throttled": found[0] if found else None, "query": query}))
