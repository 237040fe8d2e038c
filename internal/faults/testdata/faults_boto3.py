"""Meets each fault kind of faults.rules with boto3, as a service's own
tests would, and prints one JSON object of what the client saw.

usage: python3 faults_boto3.py ENDPOINT TABLE
"""
import json
import sys
import time

import boto3
import botocore
from botocore.config import Config

endpoint, table = sys.argv[1], sys.argv[2]


def client(attempts):
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id="ddbharness", aws_secret_access_key="ddbharness",
                        config=Config(retries={"mode": "standard", "total_max_attempts": attempts},
                                      connect_timeout=10, read_timeout=30))


once, retrying = client(1), client(3)


def key(pk):
    return {"pk": {"S": pk}}


def failed(call):
    """The error call raises, as the client sees it; None if it succeeds."""
    try:
        call()
    except botocore.exceptions.ClientError as e:
        r = e.response
        return {"code": r["Error"]["Code"], "status": r["ResponseMetadata"]["HTTPStatusCode"],
                "reasons": [x.get("reason") for x in r.get("throttlingReasons", r.get("ThrottlingReasons", []))],
                "cancellation": [x.get("Code") for x in r.get("CancellationReasons", [])],
                "retries": r["ResponseMetadata"].get("RetryAttempts", 0)}
    except botocore.exceptions.BotoCoreError as e:
        return {"code": type(e).__name__}
    return None


def stored(pk):
    return "Item" in once.get_item(TableName=table, Key=key(pk), ConsistentRead=True)


once.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                  KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                  AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])

out = {}
for pk in ["throttle", "provisioned", "limit", "e500", "e503"]:
    got = failed(lambda: once.get_item(TableName=table, Key=key(pk)))
    r = retrying.get_item(TableName=table, Key=key(pk))
    got["retried"] = r["ResponseMetadata"].get("RetryAttempts", 0)
    out[pk] = got

for pk in ["tx-conflict", "tx-throttle"]:
    got = failed(lambda: retrying.transact_write_items(TransactItems=[
        {"Put": {"TableName": table, "Item": key(pk)}},
        {"Put": {"TableName": table, "Item": key(pk + "-other")}}]))
    got["written"] = stored(pk) or stored(pk + "-other")
    out[pk] = got

out["single"] = failed(lambda: retrying.update_item(TableName=table, Key=key("single"), UpdateExpression="SET n = :one",
                                                    ExpressionAttributeValues={":one": {"N": "1"}}))

r = once.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": key(pk)}} for pk in ["keep-1", "back-1", "keep-2", "back-2"]]})
out["unprocessedItems"] = {"back": [w["PutRequest"]["Item"]["pk"]["S"] for w in r.get("UnprocessedItems", {}).get(table, [])],
                           "written": [pk for pk in ["keep-1", "back-1", "keep-2", "back-2"] if stored(pk)]}

for pk in ["get-1", "get-2"]:
    once.put_item(TableName=table, Item=key(pk))
r = once.batch_get_item(RequestItems={table: {"Keys": [key("get-1"), key("get-2")]}})
out["unprocessedKeys"] = {"read": [i["pk"]["S"] for i in r.get("Responses", {}).get(table, [])],
                          "back": [k["pk"]["S"] for k in r.get("UnprocessedKeys", {}).get(table, {}).get("Keys", [])]}

add = dict(TableName=table, Key=key("reset"), UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": {"N": "1"}})
got = failed(lambda: once.update_item(**add))
got["appliedBeforeReset"] = stored("reset")
r = retrying.update_item(**add)
got["retried"] = r["ResponseMetadata"].get("RetryAttempts", 0)
got["n"] = int(once.get_item(TableName=table, Key=key("reset"), ConsistentRead=True)["Item"]["n"]["N"])
out["reset"] = got

start = time.monotonic()
once.get_item(TableName=table, Key=key("slow"))
out["slowMillis"] = int((time.monotonic() - start) * 1000)

print(json.dumps(out))
