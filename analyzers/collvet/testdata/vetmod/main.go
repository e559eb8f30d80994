// Command vetmod is the fixture of the go vet -vettool test: a finding, a
// suppressed one, and a clean package beside it.
package main

// #cgo CFLAGS: -I${SRCDIR}/include
// #include "nccl.h"
import "C"

import "runtime"

func main() {
	var id C.ncclUniqueId
	var comm, side C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	C.ncclCommInitRank(&side, 2, id, 0)
	done := make(chan bool)
	go func() {
		runtime.LockOSThread()
		C.ncclAllReduce(nil, nil, 1, C.ncclFloat, C.ncclSum, comm, nil)
		done <- true
	}()
	go func() {
		runtime.LockOSThread()
		//collvet:ignore CV101,CV103 main waits on done before it uses side
		C.ncclBroadcast(nil, nil, 1, C.ncclFloat, 0, side, nil)
		done <- true
	}()
	C.ncclBroadcast(nil, nil, 1, C.ncclFloat, 0, comm, nil)
	<-done
	<-done
}
