// A caller of the same kind of binding that hands its methods two streams:
// one communicator on two streams with nothing ordering them (CV201).
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "unsafe"

type Comm struct{ comm C.ncclComm_t }

func (c *Comm) AllReduce(buf unsafe.Pointer, n int, stream unsafe.Pointer) {
	C.ncclAllReduce(buf, buf, C.size_t(n), C.ncclFloat, C.ncclSum, c.comm, C.cudaStream_t(stream)) // want `^CV201 C.ncclAllReduce on group .* is issued on stream`
}

func (c *Comm) Broadcast(buf unsafe.Pointer, n int, root int, stream unsafe.Pointer) {
	C.ncclBroadcast(buf, buf, C.size_t(n), C.ncclFloat, C.int(root), c.comm, C.cudaStream_t(stream))
}

func main() {
	var c Comm
	var s1, s2 C.cudaStream_t
	C.cudaStreamCreate(&s1)
	C.cudaStreamCreate(&s2)
	c.Broadcast(nil, 4, 0, unsafe.Pointer(s1))
	c.AllReduce(nil, 4, unsafe.Pointer(s2))
}
