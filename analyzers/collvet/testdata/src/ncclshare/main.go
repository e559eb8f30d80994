// CV101: one communicator from the main goroutine and from a goroutine
// that may run at the same time.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "runtime"

func main() {
	var id C.ncclUniqueId
	var comm C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	var stream C.cudaStream_t
	C.cudaStreamCreate(&stream)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, stream) // want `^CV101 C.ncclAllReduce on group ncclCommInitRank@.*main.go:14 is issued from a goroutine started at .*main.go:18 while the main thread issues C.ncclBroadcast`
		close(done)
	}()
	C.ncclBroadcast(nil, nil, 1, C.ncclFloat, 0, comm, stream)
	<-done
}
