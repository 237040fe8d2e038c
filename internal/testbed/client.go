package testbed

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/ddbharness/ddbharness/designs"
)

// DefaultMaxConns is the idle-connection pool per host. Bench runs up to
// this many calls at once; a smaller pool costs throughput in reconnects.
const DefaultMaxConns = 256

// Client returns an SDK client for endpoint, under the process's
// environment (LoadEnv); see NewClient.
func Client(endpoint string, opts ...func(*dynamodb.Options)) *dynamodb.Client {
	env, _ := LoadEnv()
	return NewClient(endpoint, env, opts...)
}

// NewClient returns an SDK client for endpoint. On loopback it signs with
// placeholder credentials (DynamoDB Local accepts any) and sends again a
// request Local timed out on its lock (resendLockTimeouts); elsewhere it loads
// the usual AWS configuration and guards table creation and deletion with
// env's opt-in. Extra options pass through to the SDK untouched.
func NewClient(endpoint string, env Env, opts ...func(*dynamodb.Options)) *dynamodb.Client {
	httpClient := awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConns = DefaultMaxConns
		t.MaxIdleConnsPerHost = DefaultMaxConns
	})
	cfg := aws.Config{
		Region:      "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("ddbharness", "ddbharness", ""),
		HTTPClient:  httpClient,
	}
	loopback := IsLoopback(endpoint)
	if !loopback {
		if loaded, err := config.LoadDefaultConfig(context.Background(), config.WithHTTPClient(httpClient)); err == nil {
			cfg = loaded
		}
	}
	all := append([]func(*dynamodb.Options){func(o *dynamodb.Options) {
		if endpoint != "" { // empty: the region's own endpoint
			o.BaseEndpoint = aws.String(endpoint)
		}
		if loopback {
			o.APIOptions = append(o.APIOptions, resendLockTimeouts)
		} else {
			o.APIOptions = append(o.APIOptions, guardTables(endpoint, env.AllowRemote))
		}
	}}, opts...)
	return dynamodb.NewFromConfig(cfg, all...)
}

// guardTables refuses, on a non-loopback endpoint, to create or delete a
// table unless the user opted in, and then only tables named by the harness.
func guardTables(endpoint string, allowed bool) func(*middleware.Stack) error {
	return func(s *middleware.Stack) error {
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("ddbharnessTableGuard",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				var table, op string
				switch v := in.Parameters.(type) {
				case *dynamodb.CreateTableInput:
					table, op = aws.ToString(v.TableName), "create"
				case *dynamodb.DeleteTableInput:
					table, op = aws.ToString(v.TableName), "delete"
				default:
					return next.HandleInitialize(ctx, in)
				}
				if err := checkTable(op, table, endpoint, allowed); err != nil {
					return middleware.InitializeOutput{}, middleware.Metadata{}, err
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	}
}

// checkTable is the guard's rule: on a remote endpoint, only with the
// user's opt-in, and only tables the harness named.
func checkTable(op, table, endpoint string, allowed bool) error {
	if !allowed {
		return fmt.Errorf("refusing to %s table %s on %s, which is not this machine: set %s=1 to let the harness create and delete its own %s* tables there",
			op, table, endpoint, EnvAllowRemote, designs.TablePrefix)
	}
	if !strings.HasPrefix(table, designs.TablePrefix) {
		return fmt.Errorf("refusing to %s table %s on %s: the harness touches only tables named %s*", op, table, endpoint, designs.TablePrefix)
	}
	return nil
}
