// Package jsontext edits DynamoDB's JSON as text: an object's members are
// found, some taken out or given a new value, and every other byte stays
// as it came.
//
// The endpoint (package endpoint) stands between a client and DynamoDB
// Local. Where it decides nothing, the bytes go through unchanged: what
// the client sent reaches Local spelt as sent (its numbers, escapes,
// spacing, even invalid UTF-8), and Local's answer reaches the client
// spelt as Local wrote it. Decoding into Go values and encoding again
// would respell all of it; editing the text changes only the members the
// endpoint means to change.
//
// The package reads an object's or an array's outline, not its values:
// the text it edits is text DynamoDB Local or the SDK reads whole, and a
// caller that needs the text valid checks it with json.Valid.
package jsontext
