// CV104 through the gompi binding: Start(false) calls MPI_Init (single
// thread), then a goroutine reduces. CV101 too: the goroutine and main use
// one communicator at once.
package main

import (
	mpi "github.com/sbromberger/gompi"
	"runtime"
)

func init() { runtime.LockOSThread() }

func main() {
	mpi.Start(false)
	defer mpi.Stop()
	comm := mpi.NewCommunicator(nil)
	grads := make([]float64, 8)
	sum := make([]float64, 8)
	done := make(chan error)
	go func() {
		runtime.LockOSThread()
		done <- comm.AllreduceFloat64s(sum, grads, mpi.OpSum, 0) // want `^CV101 Communicator.AllreduceFloat64s on group NewCommunicator@.*main.go:16 is issued from a goroutine` `^CV104 Communicator.AllreduceFloat64s is called from a goroutine started at .*main.go:20, but MPI was initialised with thread level "single"`
	}()
	comm.Barrier()
	<-done
}
