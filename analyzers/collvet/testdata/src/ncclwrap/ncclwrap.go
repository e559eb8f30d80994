// Package ncclwrap is an in-house NCCL wrapper, as training code in Go
// writes them: its summaries (facts) tell importers which communicator
// each method uses and which goroutines it starts.
package ncclwrap

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "runtime"

// Comm is one NCCL communicator and its stream.
type Comm struct {
	comm   C.ncclComm_t
	stream C.cudaStream_t
}

// New joins the communicator of rank among n ranks.
func New(n, rank int) *Comm {
	var id C.ncclUniqueId
	c := &Comm{}
	C.ncclCommInitRank(&c.comm, C.int(n), id, C.int(rank))
	C.cudaStreamCreate(&c.stream)
	return c
}

// AllReduce sums n floats across ranks.
func (c *Comm) AllReduce(n int) {
	C.ncclAllReduce(nil, nil, C.size_t(n), C.ncclFloat, C.ncclSum, c.comm, c.stream) // want `^CV101 C.ncclAllReduce on group ncclCommInitRank@.*ncclwrap.go:22 is issued from a goroutine started at .*ncclwrap.go:34 while the main thread issues C.ncclAllReduce`
}

// Background reduces on its own goroutine (locked), until stop closes.
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
