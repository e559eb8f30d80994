// NCCL's one device per thread: each goroutine makes its own rank of one
// communicator from the unique id they share, directly or through a
// helper, and drives only that rank (silent). Goroutines that each make
// their own unique id drive several communicators (CV103).
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

import (
	"runtime"
	"sync"
)

type Comm struct{ c C.ncclComm_t }

func initRank(id C.ncclUniqueId, n, rank int) *Comm {
	var c C.ncclComm_t
	C.ncclCommInitRank(&c, C.int(n), id, C.int(rank))
	return &Comm{c: c}
}

// Strategy keeps its rank's communicator, as zerfoo's NCCL strategy does.
type Strategy struct{ comm C.ncclComm_t }

func (s *Strategy) Init(id C.ncclUniqueId, rank int) {
	C.ncclCommInitRank(&s.comm, 2, id, C.int(rank))
}

func (s *Strategy) Reduce() {
	C.ncclAllReduce(nil, nil, 4, C.ncclFloat, C.ncclSum, s.comm, nil)
}

func main() {
	var id C.ncclUniqueId
	C.ncclGetUniqueId(&id)
	var wg sync.WaitGroup
	for rank := 0; rank < 2; rank++ {
		wg.Add(1)
		go func(rank int) {
			runtime.LockOSThread()
			defer wg.Done()
			C.cudaSetDevice(C.int(rank))
			var comm C.ncclComm_t
			C.ncclCommInitRank(&comm, 2, id, C.int(rank))
			C.ncclAllReduce(nil, nil, 4, C.ncclFloat, C.ncclSum, comm, nil)
		}(rank)
	}
	wg.Wait()
	for rank := 0; rank < 2; rank++ {
		wg.Add(1)
		go func(rank int) {
			runtime.LockOSThread()
			defer wg.Done()
			C.cudaSetDevice(C.int(rank))
			comm := initRank(id, 2, rank)
			C.ncclAllReduce(nil, nil, 4, C.ncclFloat, C.ncclSum, comm.c, nil)
		}(rank)
	}
	wg.Wait()
	for rank := 0; rank < 2; rank++ {
		wg.Add(1)
		go func(rank int) {
			runtime.LockOSThread()
			defer wg.Done()
			C.cudaSetDevice(C.int(rank))
			s := &Strategy{}
			s.Init(id, rank)
			s.Reduce()
		}(rank)
	}
	wg.Wait()
	for rank := 0; rank < 2; rank++ {
		wg.Add(1)
		go func(rank int) {
			runtime.LockOSThread()
			defer wg.Done()
			var own C.ncclUniqueId
			C.ncclGetUniqueId(&own)
			var comm C.ncclComm_t
			C.ncclCommInitRank(&comm, 2, own, 0)
			C.ncclAllReduce(nil, nil, 4, C.ncclFloat, C.ncclSum, comm, nil) // want `^CV103 C.ncclAllReduce on group .*a group created once per loop iteration or thread`
		}(rank)
	}
	wg.Wait()
}
