// Suppressions: a directive with a reason silences the finding on its
// line (trailing) or on the next line (alone on its line).
package main

import (
	mpi "github.com/sbromberger/gompi"
)

func main() {
	mpi.Start(true)
	comm := mpi.NewCommunicator(nil)
	done := make(chan bool)
	go func() {
		//collvet:ignore CV101 the main goroutine waits on done before its barrier
		comm.Barrier()
		done <- true
	}()
	go func() {
		comm.Barrier() //collvet:ignore CV1 ordered by done as well
		done <- true
	}()
	go func() {
		//collvet:ignore CV101
		comm.Barrier() // want `^CV101 Communicator.Barrier on group NewCommunicator@.*main.go:11`
		done <- true
	}() // the directive without a reason suppresses nothing
	<-done
	<-done
	comm.Barrier()
}
