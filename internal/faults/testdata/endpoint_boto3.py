"""Drives ddbharness local --limits with boto3, as a service's own tests
would, and prints one JSON object of what DynamoDB's answers were.

usage: python3 endpoint_boto3.py ENDPOINT TABLE
Each step stops at the answer it looks for, or after a bounded number of
calls; a step that never sees it reports null.
"""
import json
import sys
import threading

import boto3
import botocore
from botocore.config import Config

endpoint, table = sys.argv[1], sys.argv[2]


def client(attempts):
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id="ddbharness", aws_secret_access_key="ddbharness",
                        config=Config(retries={"mode": "standard", "max_attempts": attempts},
                                      connect_timeout=10, read_timeout=30))


def until(workers, calls, step):
    """Runs step(client, i) on workers threads, calls times each, until one
    returns something; that is the answer (None if none did)."""
    found, stop = [], threading.Event()

    def work():
        c = client(2)
        for i in range(calls):
            if stop.is_set():
                return
            got = step(c, i)
            if got is not None:
                found.append(got)
                stop.set()
                return

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return found[0] if found else None


c = client(2)
c.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
               KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
               AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
c.put_item(TableName=table, Item={"pk": {"S": "hot"}})
c.put_item(TableName=table, Item={"pk": {"S": "tx"}, "n": {"N": "0"}})


def hot(c, i):
    try:
        c.get_item(TableName=table, Key={"pk": {"S": "hot"}}, ConsistentRead=True)
    except botocore.exceptions.ClientError as e:
        r = e.response
        return {"code": r["Error"]["Code"], "reasons": r.get("throttlingReasons", r.get("ThrottlingReasons")),
                "retries": r["ResponseMetadata"].get("RetryAttempts", 0)}


def batch(c, i):
    items = [{"PutRequest": {"Item": {"pk": {"S": "k%d-%d" % (i, j)}, "pad": {"S": "x" * 3000}}}} for j in range(25)]
    try:
        out = c.batch_write_item(RequestItems={table: items})
    except botocore.exceptions.ClientError as e:
        if e.response["Error"]["Code"] == "ThrottlingException":
            return None  # every item's partition spent: the whole batch is refused
        raise
    back = out.get("UnprocessedItems", {}).get(table, [])
    return len(back) if back else None


def tx(c, i):
    try:
        c.transact_write_items(TransactItems=[{"Update": {
            "TableName": table, "Key": {"pk": {"S": "tx"}}, "UpdateExpression": "ADD n :one",
            "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
    except botocore.exceptions.ClientError as e:
        codes = [r.get("Code") for r in e.response.get("CancellationReasons", [])]
        if "TransactionConflict" in codes:
            return {"code": e.response["Error"]["Code"], "reasons": codes}


print(json.dumps({"throttled": until(8, 2000, hot), "unprocessed": until(1, 40, batch), "conflict": until(2, 300, tx)}))
