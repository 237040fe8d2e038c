// Package spill is a map whose recently used entries stay in memory and
// the rest go to an unlinked temporary file, so that a run that creates
// keys at every call (an invoice, its line items) keeps a bounded heap
// however long it runs. The operating system's page cache, not the
// process, holds what the file has lately been read or written.
//
// Keys and values are fixed-size values without pointers (ids, hashes,
// counters), stored as their bytes in memory: the file is private to the
// process that wrote it and gone when it ends.
package spill
