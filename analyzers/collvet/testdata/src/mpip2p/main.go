// MPI matches point-to-point messages by source, tag and communicator,
// not by issue order: at MPI_THREAD_MULTIPLE a sending goroutine and a
// receiving one may share the communicator with main's collectives
// (gompitest's message node). Nothing to report.
package main

import (
	mpi "github.com/sbromberger/gompi"
)

func main() {
	mpi.Start(true)
	defer mpi.Stop()
	comm := mpi.NewCommunicator(nil)
	done := make(chan bool)
	go func() {
		for i := 0; i < 10; i++ {
			comm.SendString("ping", 1, 7)
		}
		done <- true
	}()
	go func() {
		for i := 0; i < 10; i++ {
			comm.MrecvBytes(1, 7)
		}
		done <- true
	}()
	comm.Barrier()
	<-done
	<-done
}
