// Package bad does not type-check: the loader must report it, not crash.
package bad

import "runtime"

func Run(ch chan int, comm undefinedComm) {
	for x := range undefinedChan {
		go func() {
			runtime.LockOSThread()
			comm.AllReduce(x, missing)
		}()
	}
	var s = struct{}{}.Field
	go s.Method()
	go undefinedFunc(comm)
	go func(
}
