package endpoint

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
)

// FuzzDecodeRequest reads any body as any data-plane operation's request:
// it never panics, and a body it reads is one the SDK writes back into
// the same input (what the endpoint sends DynamoDB Local is what the
// client asked).
func FuzzDecodeRequest(f *testing.F) {
	names := slices.Sorted(maps.Keys(dataPlane))
	for _, seed := range []string{
		`{"TableName":"t","Key":{"PK":{"S":"a"},"SK":{"N":"1.50"}},"ConsistentRead":true,"ProjectionExpression":"#n","ExpressionAttributeNames":{"#n":"n"}}`,
		`{"TableName":"t","Item":{"PK":{"S":"a"},"l":{"L":[{"B":"AAE="},{"NULL":true},{"M":{"s":{"SS":["x","y"]}}}]},"ns":{"NS":["1","2"]}},"ReturnValues":"ALL_OLD"}`,
		`{"RequestItems":{"t":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"b"}}}}]}}`,
		`{"TransactItems":[{"Update":{"TableName":"t","Key":{"PK":{"S":"a"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"BOOL":false}}}}],"ClientRequestToken":"x"}`,
		`{"TableName":"t","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":10,"ExclusiveStartKey":{"PK":{"S":"a"}}}`,
		`{"TableName":"t","Key":{"PK":{"S":""}},"Unknown":1}`, `{"TableName":5}`, `[]`, `{"Key":{"PK":{"M":{"M":{}}}}}`, ``,
	} {
		for i := range names {
			f.Add(uint8(i), []byte(seed))
		}
	}
	client := dynamodb.New(dynamodb.Options{Region: "us-east-1"})
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		o := dataPlane[names[int(which)%len(names)]]
		in, _, err := o.decode(body)
		if err != nil {
			return
		}
		s, ok := in.(smithy.Serializable)
		if !ok {
			return // PartiQL's: its statements read, which the SDK does not write
		}
		b, err := encodeOutput(client, s)
		if err != nil {
			t.Fatalf("the SDK cannot write back %s: %v", body, err)
		}
		again, _, err := o.decode(b)
		if err != nil {
			t.Fatalf("%s read, written back as %s, which does not read: %v", body, b, err)
		}
		if !reflect.DeepEqual(in, again) {
			t.Fatalf("%s read, written back as %s, reads otherwise", body, b)
		}
	})
}
