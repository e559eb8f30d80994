// CV101: goroutines started in a loop share one communicator; a second
// loop gives each goroutine its own element of a communicator array and
// stays silent.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import (
	"runtime"
	"sync"
)

func step(comm C.ncclComm_t, stream C.cudaStream_t) {
	C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, stream) // want `^CV101 C.ncclAllReduce on group ncclCommInitRank@.* is issued from a goroutine started at .*main.go:30, which runs on several threads at once`
}

func perDevice(comm C.ncclComm_t, stream C.cudaStream_t) {
	C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, stream)
}

func main() {
	var id C.ncclUniqueId
	var comm C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			runtime.LockOSThread()
			defer wg.Done()
			step(comm, nil)
		}()
	}
	wg.Wait()

	comms := make([]C.ncclComm_t, 4)
	C.ncclCommInitAll(&comms[0], 4, nil)
	for i := range comms {
		wg.Add(1)
		go func(i int) {
			runtime.LockOSThread()
			defer wg.Done()
			perDevice(comms[i], nil)
		}(i)
	}
	wg.Wait()
}
