// Package askmore makes the request the endpoint sends DynamoDB Local from
// the client's text, and trims Local's answer back to what the client
// asked.
//
// The meter (bench/meter) asks DynamoDB Local for more than a client may
// have asked: old images (ReturnValues ALL_OLD, and ALL_OLD on a failed
// condition), per-index consumed capacity (INDEXES), the key attributes
// in a projection. It changes nothing else, and only where the client
// asked for none of it, so what it added can be taken out of Local's
// answer again (Answer), leaving the answer Local gives the request as
// the client sent it. The request itself (Request) is the client's text
// with only those members changed (and, when the emulator admitted part
// of a batch, only the items admitted), edited as text (package jsontext)
// so that every other byte reaches Local as the client wrote it.
package askmore
