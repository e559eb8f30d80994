// CV105: goroutines that call CUDA and NCCL without locking their OS
// thread; the fix locks it.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "runtime"

type request struct{ n int }

func serve(dev int, comm C.ncclComm_t, stream C.cudaStream_t, reqs chan request) {
	C.cudaSetDevice(C.int(dev)) // want `^CV105 C.cudaSetDevice runs in a goroutine started at .*main.go:29 that does not lock its OS thread`
	for r := range reqs {
		C.ncclAllReduce(nil, nil, C.size_t(r.n), C.ncclFloat, C.ncclSum, comm, stream)
	}
}

func main() {
	runtime.GOMAXPROCS(4)
	var id C.ncclUniqueId
	var comm C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	C.ncclCommInitRank(&comm, 2, id, 1)
	reqs := make(chan request)
	// One owner goroutine per communicator serving requests is the right
	// shape; it only lacks the lock.
	go serve(0, comm, nil, reqs)
	go func() {
		C.cudaSetDevice(1) // want `^CV105 C.cudaSetDevice runs in a goroutine started at .*main.go:30 that does not lock its OS thread`
		C.cudaStreamSynchronize(nil)
	}()
	reqs <- request{n: 1}
}
