"""A plain boto3 client's PutItem loop, one thread, for the endpoint's
speed benchmark (overhead_test.go): as many calls as it can make in the
time given, on 1,000 keys, after one call to warm the connection.

usage: python3 put_loop_boto3.py ENDPOINT TABLE SECONDS
prints: the calls made and the seconds they took, as one JSON object
"""
import json
import sys
import time

import boto3
from botocore.config import Config

endpoint, table, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
db = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                  aws_access_key_id="ddbharness", aws_secret_access_key="ddbharness",
                  config=Config(retries={"mode": "standard", "max_attempts": 1}))
db.put_item(TableName=table, Item={"PK": {"S": "warm"}, "SK": {"S": "A"}})
calls, start = 0, time.monotonic()
while time.monotonic() - start < seconds:
    db.put_item(TableName=table, Item={"PK": {"S": "K%d" % (calls % 1000)}, "SK": {"S": "A"},
                                       "Name": {"S": "an item with a name of some length"}})
    calls += 1
print(json.dumps({"calls": calls, "seconds": time.monotonic() - start}))
