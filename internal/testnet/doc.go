// Package testnet holds the network fixtures that the launcher's specs and
// the fault-injection suite share: an address off loopback, a port nothing
// listens on, and an HTTP server that is not DynamoDB and counts what
// reaches it. It imports nothing of the harness, so testbed's own specs
// can use it.
package testnet
