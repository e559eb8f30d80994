// Package clean communicates from one locked goroutine only.
package clean

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "runtime"

// Serve owns comm: all its collectives run here.
func Serve(comm C.ncclComm_t, reqs <-chan int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for n := range reqs {
		C.ncclAllReduce(nil, nil, C.size_t(n), C.ncclFloat, C.ncclSum, comm, nil)
	}
}
