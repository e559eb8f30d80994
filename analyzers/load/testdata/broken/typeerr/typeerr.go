// Package typeerr parses but does not type-check; the builder runs on it
// anyway (RunDespiteErrors) and must not crash.
package typeerr

// #include <stdlib.h>
import "C"

import "runtime"

func Run(ch chan int, comm undefinedComm) {
	for x := range undefinedChan {
		go func() {
			runtime.LockOSThread()
			comm.AllReduce(x, missing)
			C.ncclAllReduce(nil, nil, 1, comm, nil)
		}()
	}
	var s = struct{}{}.Field
	go s.Method()
	go undefinedFunc(comm)
	go (func())(nil)()
	C.MPI_Init_thread(nil, nil, C.MPI_THREAD_FUNNELED, nil)
}
