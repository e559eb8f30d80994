// Two unlocked goroutines, started by two functions, reach the same
// wrapper's ncclCommInitRank: each needs its own runtime.LockOSThread, so
// the second is reported where it starts.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import "sync"

func initRank(id C.ncclUniqueId, rank int) C.ncclComm_t {
	var c C.ncclComm_t
	C.ncclCommInitRank(&c, 2, id, C.int(rank)) // want `^CV105 C.ncclCommInitRank runs in a goroutine started at .*main.go:19`
	return c
}

func runA(id C.ncclUniqueId, wg *sync.WaitGroup) {
	go func() {
		defer wg.Done()
		initRank(id, 0)
	}()
}

func runB(id C.ncclUniqueId, wg *sync.WaitGroup) {
	go func() { // want `^CV105 the goroutine started here runs C.ncclCommInitRank without locking its OS thread`
		defer wg.Done()
		initRank(id, 1)
	}()
}

func main() {
	var id C.ncclUniqueId
	var wg sync.WaitGroup
	wg.Add(2)
	runA(id, &wg)
	runB(id, &wg)
	wg.Wait()
}
