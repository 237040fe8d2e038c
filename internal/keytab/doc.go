// Package keytab numbers key texts: a run names the same partition key
// values in several places (the capacity ledger's rows, its collections,
// the limits emulator's estimates), and one numbering of the texts lets each keep
// a 32-bit id instead of its own copy of the text.
//
// A run that creates keys at every call would grow by every new text, so
// the numbering keeps neither its texts nor its index in memory for long: each
// text is appended, behind its length, to a store whose full chunks go to
// an unlinked temporary file, and its id is where it lies there. The index
// from a text's 128-bit hash to its id is a spill map.
package keytab
