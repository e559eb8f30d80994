// CV105 with UnlockOSThread: a plain call undoes the lock for what
// follows it; a deferred one does not, and LockOSThread calls nest.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import (
	"runtime"
	"sync"
)

// undone unlocks before it communicates: the goroutine may change threads.
func undone(comm C.ncclComm_t, wg *sync.WaitGroup) {
	defer wg.Done()
	runtime.LockOSThread()
	C.cudaSetDevice(0)
	runtime.UnlockOSThread()
	C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, nil) // want `^CV105 C.ncclAllReduce runs in a goroutine started at .*main.go:\d+ after runtime.UnlockOSThread at .*main.go:19 undid its lock`
}

// deferred holds the lock until it returns.
func deferred(wg *sync.WaitGroup) {
	defer wg.Done()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	C.cudaSetDevice(1)
	C.cudaStreamSynchronize(nil)
}

// nested locks twice and unlocks once: still locked.
func nested(wg *sync.WaitGroup) {
	defer wg.Done()
	runtime.LockOSThread()
	runtime.LockOSThread()
	runtime.UnlockOSThread()
	C.cudaSetDevice(2)
	C.cudaStreamSynchronize(nil)
}

func main() {
	var id C.ncclUniqueId
	var comm C.ncclComm_t
	C.ncclCommInitRank(&comm, 1, id, 0)
	var wg sync.WaitGroup
	wg.Add(3)
	go undone(comm, &wg)
	go deferred(&wg)
	go nested(&wg)
	wg.Wait()
}
