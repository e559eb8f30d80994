// CV201: one communicator on two streams with no ordering between them;
// a second communicator that keeps to one stream, and a third whose second
// stream waits on an event recorded on the first, stay silent.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

func main() {
	var id C.ncclUniqueId
	var comm, solo C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	C.ncclCommInitRank(&solo, 2, id, 0)
	var compute, comms C.cudaStream_t
	C.cudaStreamCreate(&compute)
	C.cudaStreamCreate(&comms)
	C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, compute)
	C.ncclBroadcast(nil, nil, 1, C.ncclFloat, 0, comm, comms) // want `^CV201 C.ncclBroadcast on group ncclCommInitRank@.*main.go:13 is issued on stream stream@.*main.go:17, but the same communicator also runs C.ncclAllReduce on stream stream@.*main.go:16`
	C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, solo, comms)
	C.ncclBroadcast(nil, nil, 1, C.ncclFloat, 0, solo, comms)

	var ordered C.ncclComm_t
	C.ncclCommInitRank(&ordered, 2, id, 0)
	var s1, s2 C.cudaStream_t
	C.cudaStreamCreate(&s1)
	C.cudaStreamCreate(&s2)
	var ev C.cudaEvent_t
	C.cudaEventCreate(&ev)
	C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, ordered, s1)
	C.cudaEventRecord(ev, s1)
	C.cudaStreamWaitEvent(s2, ev, 0)
	C.ncclBroadcast(nil, nil, 1, C.ncclFloat, 0, ordered, s2)
}
