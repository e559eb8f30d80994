// CV105: an NCCL group that spans a blocking point on an unlocked
// goroutine; the same group with nothing blocking between start and end
// stays silent.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "nccl.h"
import "C"

func exchange(comm C.ncclComm_t, peer C.int, ready chan bool) {
	C.ncclGroupStart() // want `^CV105 C.ncclGroupStart and the C.ncclGroupEnd at .*main.go:14 may run on different OS threads`
	C.ncclSend(nil, 1, C.ncclFloat, peer, comm, nil)
	<-ready
	C.ncclGroupEnd()
}

func exchangeNow(comm C.ncclComm_t, peer C.int) {
	C.ncclGroupStart()
	C.ncclSend(nil, 1, C.ncclFloat, peer, comm, nil)
	C.ncclRecv(nil, 1, C.ncclFloat, peer, comm, nil)
	C.ncclGroupEnd()
}

func main() {
	var id C.ncclUniqueId
	var comm C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	ready := make(chan bool, 1)
	ready <- true
	exchange(comm, 1, ready)
	exchangeNow(comm, 1)
}
