// One process, one goroutine per device: ncclCommInitAll makes a
// communicator per device and goroutine i selects device i and drives only
// comms[i]. Selecting the device is on no communicator, so the goroutines
// share none (silent).
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import (
	"runtime"
	"sync"
)

func main() {
	const n = 2
	var comms [n]C.ncclComm_t
	C.ncclCommInitAll(&comms[0], n, nil)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			C.cudaSetDevice(C.int(i))
			C.ncclAllReduce(nil, nil, 1024, C.ncclFloat, C.ncclSum, comms[i], nil)
		}(i)
	}
	wg.Wait()
}
