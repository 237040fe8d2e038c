"""Asks ddbharness local --limits, with boto3, what DynamoDB's wire says
where an endpoint that rewrote answers would differ, and prints one JSON
object of what came back.

usage: python3 wire_boto3.py ENDPOINT TABLE
"""
import json
import sys

import boto3
import botocore
from botocore.config import Config

endpoint, table = sys.argv[1], sys.argv[2]
c = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                 aws_access_key_id="ddbharness", aws_secret_access_key="ddbharness",
                 config=Config(retries={"mode": "standard", "max_attempts": 1},
                               connect_timeout=10, read_timeout=60))
c.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
               KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
               AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
got = {}

q = c.query(TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "none"}})
got["queryCount"], got["queryScanned"] = q["Count"], q["ScannedCount"]  # KeyError if left out
s = c.scan(TableName=table)
got["scanCount"] = s["Count"]


def refused(**kw):
    try:
        c.put_item(TableName=table, **kw)
    except botocore.exceptions.ClientError as e:
        return e.response["Error"]["Code"]
    return "written"


got["updatedOld"] = refused(Item={"pk": {"S": "rv"}}, ReturnValues="UPDATED_OLD")
got["allNew"] = refused(Item={"pk": {"S": "rv"}}, ReturnValues="ALL_NEW")
got["afterRefusals"] = "Item" in c.get_item(TableName=table, Key={"pk": {"S": "rv"}}, ConsistentRead=True)
c.put_item(TableName=table, Item={"pk": {"S": "rv"}, "n": {"N": "1.50"}})
old = c.put_item(TableName=table, Item={"pk": {"S": "rv"}}, ReturnValues="ALL_OLD", ReturnConsumedCapacity="TOTAL")
got["allOld"] = old["Attributes"]
got["totalKeys"] = sorted(old["ConsumedCapacity"].keys())
none = c.put_item(TableName=table, Item={"pk": {"S": "rv"}})
got["noneKeys"] = sorted(k for k in none.keys() if k != "ResponseMetadata")

try:
    c.put_item(TableName=table, Item={"pk": {"S": "big"}, "v": {"S": "x" * (17 * 1024 * 1024)}})
    got["tooLarge"] = 200
except botocore.exceptions.ClientError as e:
    got["tooLarge"] = e.response["ResponseMetadata"]["HTTPStatusCode"]
print(json.dumps(got))
