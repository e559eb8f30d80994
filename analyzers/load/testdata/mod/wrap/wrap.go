// Package wrap owns an NCCL communicator through cgo.
package wrap

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "runtime"

// Comm is a communicator and its stream.
type Comm struct {
	comm   C.ncclComm_t
	stream C.cudaStream_t
}

// New joins a communicator.
func New(n, rank int) *Comm {
	var id C.ncclUniqueId
	c := &Comm{}
	C.ncclCommInitRank(&c.comm, C.int(n), id, C.int(rank))
	return c
}

// AllReduce sums n floats.
func (c *Comm) AllReduce(n int) {
	C.ncclAllReduce(nil, nil, C.size_t(n), C.ncclFloat, C.ncclSum, c.comm, c.stream)
}

// Background reduces on a locked goroutine until stop closes.
func (c *Comm) Background(stop chan struct{}) {
	go func() {
		runtime.LockOSThread()
		for {
			select {
			case <-stop:
				return
			default:
				c.AllReduce(1)
			}
		}
	}()
}
