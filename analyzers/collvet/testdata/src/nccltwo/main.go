// CV103: two NCCL communicators (intra- and inter-node) driven from two
// goroutines at once.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import (
	"runtime"
	"sync"
)

func worker(comm C.ncclComm_t, stream C.cudaStream_t, wg *sync.WaitGroup) {
	runtime.LockOSThread()
	defer wg.Done()
	C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, stream) // want `^CV103 C.ncclAllReduce on group ncclCommInitRank@.*main.go:23 is issued from a goroutine started at .*main.go:30 while a goroutine started at .*main.go:31 drives another device communicator`
}

func main() {
	var id C.ncclUniqueId
	var intra, inter C.ncclComm_t
	C.ncclCommInitRank(&intra, 8, id, 0)
	C.ncclCommInitRank(&inter, 2, id, 0)
	var s1, s2 C.cudaStream_t
	C.cudaStreamCreate(&s1)
	C.cudaStreamCreate(&s2)
	var wg sync.WaitGroup
	wg.Add(2)
	go worker(intra, s1, &wg)
	go worker(inter, s2, &wg)
	wg.Wait()
}
