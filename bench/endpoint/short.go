package endpoint

import (
	"context"
	"errors"
	"fmt"
	"sync"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/schemas"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbharness/ddbharness/designs"
)

// A client's call goes to DynamoDB Local through a short stack: the SDK's
// input validation, its protocol's serializer and deserializer, and the
// middleware the table's SDK client installs besides (the endpoint's, the
// emulator's, the test bed's), in the order that client runs them. The
// SDK's own stack, built anew for every call with some forty steps
// (retries, signing, endpoint rules, metrics, tracing, interceptors), cost
// the endpoint more CPU than everything else a decided call does; Local
// needs none of it. Stacks are kept per operation in a pool, each used by
// one call at a time. The endpoint's own calls (a shadow's settling read) keep the
// SDK's client.

// shortClient is the designs.DB a table's meter sends through.
type shortClient struct {
	sdk *dynamodb.Client
	ops map[string]*shortOp
}

// shortOp is one operation's stacks, and what builds one.
type shortOp struct {
	name   string
	stacks sync.Pool
}

// errCaptured stops the SDK's call that gives up its input validation.
var errCaptured = errors.New("endpoint: the SDK's validation captured")

// newShortClient is the short client of sdk (a table's SDK client, its
// middleware installed), sending with doer; nil when the SDK's stack no
// longer has what the short one takes from it, and the meter then sends
// through sdk.
func newShortClient(sdk *dynamodb.Client, doer Doer) *shortClient {
	o := sdk.Options()
	if o.Protocol == nil {
		return nil
	}
	c := &shortClient{sdk: sdk, ops: map[string]*shortOp{}}
	for _, d := range shortOps {
		validate, ok := validation(sdk, d.probe)
		if !ok {
			return nil
		}
		op := &shortOp{name: d.name}
		schema, output := d.schema, d.output
		op.stacks.New = func() any {
			s := middleware.NewStack(d.name, smithyhttp.NewStackRequest)
			err := errors.Join(
				s.Initialize.Add(validate, middleware.After),
				s.Serialize.Add(serializer(o.Protocol, schema), middleware.After),
				smithyhttp.AddComputeContentLengthMiddleware(s),
				s.Deserialize.Add(deserializer(o.Protocol, schema, output), middleware.After))
			for _, fn := range o.APIOptions {
				err = errors.Join(err, fn(s))
			}
			if err != nil {
				return err
			}
			return middleware.DecorateHandler(smithyhttp.NewClientHandler(doer), s)
		}
		h, ok := op.stacks.Get().(middleware.Handler)
		if !ok {
			return nil
		}
		op.stacks.Put(h)
		c.ops[d.name] = op
	}
	return c
}

// validation is the SDK's input validation of the operation probe calls,
// taken from the stack the SDK builds for it (and stopped there).
func validation(sdk *dynamodb.Client, probe func(*dynamodb.Client, func(*dynamodb.Options)) error) (middleware.InitializeMiddleware, bool) {
	var m middleware.InitializeMiddleware
	err := probe(sdk, func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			m, _ = s.Initialize.Get("OperationInputValidation")
			return errCaptured
		})
	})
	return m, m != nil && errors.Is(err, errCaptured)
}

// serializer writes the call's input as the SDK's protocol writes it.
func serializer(p smithyhttp.ClientProtocol, schema *smithy.OperationSchema) middleware.SerializeMiddleware {
	return middleware.SerializeMiddlewareFunc("OperationSerializer", func(ctx context.Context, in middleware.SerializeInput, next middleware.SerializeHandler) (middleware.SerializeOutput, middleware.Metadata, error) {
		req, ok := in.Request.(*smithyhttp.Request)
		v, okv := in.Parameters.(smithy.Serializable)
		if !ok || !okv {
			return middleware.SerializeOutput{}, middleware.Metadata{}, fmt.Errorf("endpoint: a request of type %T, an input of type %T", in.Request, in.Parameters)
		}
		// As the SDK asks: an answer Go's transport would otherwise
		// ask gzipped and unzip, its length and checksum then another's.
		req.Header.Set("Accept-Encoding", "identity")
		if err := p.SerializeRequest(ctx, schema, v, req); err != nil {
			return middleware.SerializeOutput{}, middleware.Metadata{}, &smithy.SerializationError{Err: err}
		}
		return next.HandleSerialize(ctx, in)
	})
}

// deserializer reads the answer as the SDK's protocol reads it, into a
// new output, or its error, wrapped as the SDK wraps an answer's error.
func deserializer(p smithyhttp.ClientProtocol, schema *smithy.OperationSchema, output func() smithy.Deserializable) middleware.DeserializeMiddleware {
	return middleware.DeserializeMiddlewareFunc("OperationDeserializer", func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
		out, md, err := next.HandleDeserialize(ctx, in)
		if err != nil {
			return out, md, err
		}
		resp, ok := out.RawResponse.(*smithyhttp.Response)
		if !ok {
			return out, md, &smithy.DeserializationError{Err: fmt.Errorf("unknown transport type %T", out.RawResponse)}
		}
		defer resp.Body.Close()
		result := output()
		if err := p.DeserializeResponse(ctx, schema, dynamodb.TypeRegistry, resp, result); err != nil {
			return out, md, &awshttp.ResponseError{
				ResponseError: &smithyhttp.ResponseError{Response: resp, Err: err},
				RequestID:     resp.Header.Get("X-Amzn-Requestid"),
			}
		}
		out.Result = result
		return out, md, nil
	})
}

// call sends in through op's stack: the output, or the error wrapped as
// the SDK wraps an operation's.
func (op *shortOp) call(ctx context.Context, in any) (any, error) {
	h, ok := op.stacks.Get().(middleware.Handler)
	if !ok {
		return nil, fmt.Errorf("endpoint: no stack for %s", op.name)
	}
	out, _, err := h.Handle(middleware.ClearStackValues(ctx), in)
	op.stacks.Put(h)
	if err != nil {
		return nil, &smithy.OperationError{ServiceID: dynamodb.ServiceID, OperationName: op.name, Err: err}
	}
	return out, nil
}

// shortCall sends in through c's stack of operation name, or through the
// SDK's (sdk) when the call is the endpoint's own or carries options.
func shortCall[I, O any](c *shortClient, ctx context.Context, name string, in *I, opts []func(*dynamodb.Options), sdk func(context.Context, *I, ...func(*dynamodb.Options)) (*O, error)) (*O, error) {
	if len(opts) > 0 || designs.HarnessCall(ctx) {
		return sdk(ctx, in, opts...)
	}
	out, err := c.ops[name].call(ctx, in)
	if err != nil {
		return nil, err
	}
	o, ok := out.(*O)
	if !ok {
		return nil, fmt.Errorf("endpoint: %s answered with a %T", name, out)
	}
	return o, nil
}

// shortDef is an operation the short client sends: its schema, a new
// output, and a call of it through the SDK's client (probe).
type shortDef struct {
	name   string
	schema *smithy.OperationSchema
	output func() smithy.Deserializable
	probe  func(*dynamodb.Client, func(*dynamodb.Options)) error
}

func def[I, O any, PO interface {
	*O
	smithy.Deserializable
}](name string, op, in, out *smithy.Schema, call func(*dynamodb.Client, context.Context, *I, ...func(*dynamodb.Options)) (PO, error)) shortDef {
	return shortDef{
		name:   name,
		schema: smithy.NewOperationSchema(op, in, out),
		output: func() smithy.Deserializable { return PO(new(O)) },
		probe: func(c *dynamodb.Client, opt func(*dynamodb.Options)) error {
			_, err := call(c, context.Background(), new(I), opt)
			return err
		},
	}
}

// shortOps are the operations of designs.DB.
var shortOps = []shortDef{
	def[dynamodb.GetItemInput, dynamodb.GetItemOutput]("GetItem", schemas.GetItem, schemas.GetItemInput, schemas.GetItemOutput, (*dynamodb.Client).GetItem),
	def[dynamodb.PutItemInput, dynamodb.PutItemOutput]("PutItem", schemas.PutItem, schemas.PutItemInput, schemas.PutItemOutput, (*dynamodb.Client).PutItem),
	def[dynamodb.UpdateItemInput, dynamodb.UpdateItemOutput]("UpdateItem", schemas.UpdateItem, schemas.UpdateItemInput, schemas.UpdateItemOutput, (*dynamodb.Client).UpdateItem),
	def[dynamodb.DeleteItemInput, dynamodb.DeleteItemOutput]("DeleteItem", schemas.DeleteItem, schemas.DeleteItemInput, schemas.DeleteItemOutput, (*dynamodb.Client).DeleteItem),
	def[dynamodb.QueryInput, dynamodb.QueryOutput]("Query", schemas.Query, schemas.QueryInput, schemas.QueryOutput, (*dynamodb.Client).Query),
	def[dynamodb.ScanInput, dynamodb.ScanOutput]("Scan", schemas.Scan, schemas.ScanInput, schemas.ScanOutput, (*dynamodb.Client).Scan),
	def[dynamodb.BatchGetItemInput, dynamodb.BatchGetItemOutput]("BatchGetItem", schemas.BatchGetItem, schemas.BatchGetItemInput, schemas.BatchGetItemOutput, (*dynamodb.Client).BatchGetItem),
	def[dynamodb.BatchWriteItemInput, dynamodb.BatchWriteItemOutput]("BatchWriteItem", schemas.BatchWriteItem, schemas.BatchWriteItemInput, schemas.BatchWriteItemOutput, (*dynamodb.Client).BatchWriteItem),
	def[dynamodb.TransactGetItemsInput, dynamodb.TransactGetItemsOutput]("TransactGetItems", schemas.TransactGetItems, schemas.TransactGetItemsInput, schemas.TransactGetItemsOutput, (*dynamodb.Client).TransactGetItems),
	def[dynamodb.TransactWriteItemsInput, dynamodb.TransactWriteItemsOutput]("TransactWriteItems", schemas.TransactWriteItems, schemas.TransactWriteItemsInput, schemas.TransactWriteItemsOutput, (*dynamodb.Client).TransactWriteItems),
}

func (c *shortClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return shortCall(c, ctx, "GetItem", in, opts, c.sdk.GetItem)
}

func (c *shortClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return shortCall(c, ctx, "PutItem", in, opts, c.sdk.PutItem)
}

func (c *shortClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return shortCall(c, ctx, "UpdateItem", in, opts, c.sdk.UpdateItem)
}

func (c *shortClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return shortCall(c, ctx, "DeleteItem", in, opts, c.sdk.DeleteItem)
}

func (c *shortClient) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return shortCall(c, ctx, "Query", in, opts, c.sdk.Query)
}

func (c *shortClient) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return shortCall(c, ctx, "Scan", in, opts, c.sdk.Scan)
}

func (c *shortClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return shortCall(c, ctx, "BatchGetItem", in, opts, c.sdk.BatchGetItem)
}

func (c *shortClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return shortCall(c, ctx, "BatchWriteItem", in, opts, c.sdk.BatchWriteItem)
}

func (c *shortClient) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return shortCall(c, ctx, "TransactGetItems", in, opts, c.sdk.TransactGetItems)
}

func (c *shortClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return shortCall(c, ctx, "TransactWriteItems", in, opts, c.sdk.TransactWriteItems)
}
