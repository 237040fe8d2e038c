package endpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/bench/endpoint/jsontext"
	"github.com/ddbharness/ddbharness/ddbitem"
)

// The SDK writes requests and reads answers; the endpoint does the
// reverse. An SDK input's members are named as DynamoDB's JSON names them
// (TableName, Key, ExpressionAttributeValues...), so a request is read by
// reflection over the input's fields, its values by ddbitem's DynamoDB
// JSON decoder. An answer is written by the SDK's own serializer (every
// output is smithy.Serializable), so it is DynamoDB's wire text.

var attributeValue = reflect.TypeFor[types.AttributeValue]()

// decodeInput reads a request body into in, a pointer to an SDK input. A
// member the input does not have, or a value of another JSON type, is an
// error: such a request goes to DynamoDB Local as sent, which answers it.
func decodeInput(body []byte, in any) error {
	if !json.Valid(body) {
		var v any
		return fmt.Errorf("$: %w", json.Unmarshal(body, &v))
	}
	return decode(reflect.ValueOf(in).Elem(), json.RawMessage(body), "$")
}

func decode(v reflect.Value, raw json.RawMessage, at string) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil // as absent
	}
	if v.Type() == attributeValue {
		av, err := ddbitem.DecodeJSONValue(raw, at)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(av))
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := decode(p.Elem(), raw, at); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Struct:
		o, err := jsontext.ParseObject(raw)
		if err != nil {
			return fmt.Errorf("%s: want an object: %w", at, err)
		}
		for _, m := range o.Members() {
			f, ok := v.Type().FieldByName(m.Key)
			if !ok || !f.IsExported() || f.Anonymous || len(f.Index) != 1 {
				return fmt.Errorf("%s: unknown member %q", at, m.Key)
			}
			if err := decode(v.Field(f.Index[0]), m.Value, at+"."+m.Key); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			break // base64, as encoding/json reads []byte
		}
		elems, err := jsontext.ParseArray(raw)
		if err != nil {
			return fmt.Errorf("%s: want a list: %w", at, err)
		}
		s := reflect.MakeSlice(v.Type(), len(elems), len(elems))
		for i, e := range elems {
			if err := decode(s.Index(i), e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("%s: a map keyed by %s", at, v.Type().Key())
		}
		o, err := jsontext.ParseObject(raw)
		if err != nil {
			return fmt.Errorf("%s: want an object: %w", at, err)
		}
		m := reflect.MakeMapWithSize(v.Type(), len(o.Members()))
		for _, e := range o.Members() {
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := decode(ev, e.Value, at+"."+e.Key); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(e.Key).Convert(v.Type().Key()), ev)
		}
		v.Set(m)
		return nil
	case reflect.String:
		if len(raw) > 0 && raw[0] == '"' {
			str, err := jsontext.Unquote(raw)
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			v.SetString(str)
			return nil
		}
	case reflect.Bool, reflect.Int32, reflect.Int64, reflect.Float64:
	default:
		return fmt.Errorf("%s: a member of Go kind %s the endpoint does not read", at, v.Kind())
	}
	p := reflect.New(v.Type())
	if err := json.Unmarshal(raw, p.Interface()); err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	v.Set(p.Elem())
	return nil
}

// outputSchema lets the SDK's protocol write an output as it writes an
// input: a structure with members, none of them an event stream.
var outputSchema = smithy.NewOperationSchema(
	smithy.NewSchema(smithy.ShapeID{Namespace: "ddbharness", Name: "Answer"}, smithy.ShapeTypeOperation, 0),
	smithy.NewSchema(smithy.ShapeID{Namespace: "ddbharness", Name: "AnswerOutput"}, smithy.ShapeTypeStructure, 0), nil)

// encodeOutput writes an SDK output as DynamoDB's JSON answer, with the
// protocol of c's options (the SDK's awsJson1_0).
func encodeOutput(c *dynamodb.Client, out smithy.Serializable) ([]byte, error) {
	p := c.Options().Protocol
	if p == nil {
		return nil, fmt.Errorf("endpoint: the SDK client has no protocol to write an answer with")
	}
	req := smithyhttp.NewStackRequest().(*smithyhttp.Request)
	if err := p.SerializeRequest(context.Background(), outputSchema, out, req); err != nil {
		return nil, err
	}
	if req.GetStream() == nil {
		return []byte("{}"), nil
	}
	return io.ReadAll(req.GetStream())
}
