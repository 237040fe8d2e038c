package endpoint

import "sync/atomic"

// atomicOnce reports true to its first caller only.
type atomicOnce struct{ done atomic.Bool }

func (o *atomicOnce) first() bool { return o.done.CompareAndSwap(false, true) }
