// The cogentcore MPI wrapper through its older import path: a goroutine
// reduces on the communicator the main goroutine also uses, under
// MPI_THREAD_SINGLE.
package main

import (
	"runtime"
	"sync"

	"cogentcore.org/core/base/mpi"
)

func init() { runtime.LockOSThread() }

func main() {
	mpi.Init()
	comm, _ := mpi.NewComm(nil)
	dw, sum := make([]float32, 4), make([]float32, 4)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		runtime.LockOSThread()
		defer wg.Done()
		comm.AllReduceF32(mpi.OpSum, sum, dw) // want `^CV101 Comm.AllReduceF32 on group NewComm@` `^CV104 Comm.AllReduceF32 is called from a goroutine`
	}()
	comm.AllReduceF32(mpi.OpSum, sum, dw)
	wg.Wait()
	mpi.Finalize()
}
