// Safe shapes, all silent: one goroutine owns the communicator, locks its
// thread and serves requests over a channel; a goroutine joined right away;
// a goroutine with its own communicator while main keeps to another is
// reported by CV103 only for NCCL, so here main does no NCCL at all.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import (
	"runtime"
	"sync"
)

type request struct {
	n    int
	done chan struct{}
}

// owner is the only goroutine that touches comm.
func owner(dev int, comm C.ncclComm_t, stream C.cudaStream_t, reqs <-chan request) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	C.cudaSetDevice(C.int(dev))
	for r := range reqs {
		C.ncclAllReduce(nil, nil, C.size_t(r.n), C.ncclFloat, C.ncclSum, comm, stream)
		C.cudaStreamSynchronize(stream)
		close(r.done)
	}
}

func main() {
	var id C.ncclUniqueId
	var comm C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	var stream C.cudaStream_t
	C.cudaStreamCreate(&stream)
	reqs := make(chan request)
	go owner(0, comm, stream, reqs)
	for i := 0; i < 10; i++ {
		r := request{n: 1024, done: make(chan struct{})}
		reqs <- r
		<-r.done
	}
	close(reqs)

	// A warm-up on a helper goroutine, joined before main goes on.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		runtime.LockOSThread()
		defer wg.Done()
		C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, stream)
	}()
	wg.Wait()
}
