// Package ncclbinding wraps each collective in a method that takes the
// stream: nothing here calls them, so their stream parameters are
// whatever a caller passes, not two streams of one communicator.
package ncclbinding

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "unsafe"

type Comm struct{ comm C.ncclComm_t }

func (c *Comm) AllReduce(buf unsafe.Pointer, n int, stream unsafe.Pointer) {
	C.ncclAllReduce(buf, buf, C.size_t(n), C.ncclFloat, C.ncclSum, c.comm, C.cudaStream_t(stream))
}

func (c *Comm) Broadcast(buf unsafe.Pointer, n int, root int, stream unsafe.Pointer) {
	C.ncclBroadcast(buf, buf, C.size_t(n), C.ncclFloat, C.int(root), c.comm, C.cudaStream_t(stream))
}
