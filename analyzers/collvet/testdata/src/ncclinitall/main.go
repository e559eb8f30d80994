// One process drives every device with ncclCommInitAll: the handles are
// the ranks of one communicator, and a goroutine per device drives its own
// rank, NCCL's one-thread-per-device shape. Nothing to report.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import (
	"runtime"
	"sync"
)

func main() {
	var comms [2]C.ncclComm_t
	C.ncclCommInitAll(&comms[0], 2, nil)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		runtime.LockOSThread()
		defer wg.Done()
		C.cudaSetDevice(0)
		C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comms[0], nil)
	}()
	go func() {
		runtime.LockOSThread()
		defer wg.Done()
		C.cudaSetDevice(1)
		C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comms[1], nil)
	}()
	wg.Wait()
	for i := 0; i < 2; i++ {
		go func(i int) {
			runtime.LockOSThread()
			C.cudaSetDevice(C.int(i))
			C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comms[i], nil)
		}(i)
	}
}
