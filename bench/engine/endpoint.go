package engine

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbharness/ddbharness/internal/testbed"
)

// checkEndpoint refuses a client whose endpoint is not on this machine,
// unless the user opted in (testbed's Env.Reach decides), and reports
// whether it is off this machine. A client that does not say where it
// sends requests is refused too.
func checkEndpoint(db DynamoDB) (remote bool, err error) {
	endpoint := "the default AWS endpoint"
	if o, ok := db.(interface{ Options() dynamodb.Options }); ok {
		if e := aws.ToString(o.Options().BaseEndpoint); e != "" {
			endpoint = e
		}
	} else {
		endpoint = "an unknown endpoint"
	}
	env, err := testbed.LoadEnv()
	if err != nil {
		return true, err
	}
	if remote, err = env.Reach(endpoint, "bench's client endpoint"); err != nil {
		return true, fmt.Errorf("bench: %w", err)
	}
	return remote, nil
}
