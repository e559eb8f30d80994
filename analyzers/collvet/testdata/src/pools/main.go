// Worker pools fed by channels, over empi communicators (pointer
// receivers, MPI_THREAD_MULTIPLE): several workers on one communicator are
// reported; one communicator per worker goroutine is MPI's own remedy and
// stays silent.
package main

import (
	"sync"

	"github.com/emer/empi/v2/mpi"
)

type job struct{ dest, orig []float32 }

func main() {
	if err := mpi.InitThreadSafe(); err != nil {
		panic(err)
	}
	defer mpi.Finalize()
	shared, _ := mpi.NewComm(nil)
	jobs := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				_ = shared.AllReduceF32(mpi.OpSum, j.dest, j.orig) // want `^CV101 Comm.AllReduceF32 on group NewComm@.*main.go:20 is issued from a goroutine started at .*main.go:25, which runs on several threads at once`
			}
		}()
	}
	close(jobs)
	wg.Wait()

	// One communicator per goroutine: silent.
	a, _ := mpi.NewComm(nil)
	b, _ := mpi.NewComm(nil)
	done := make(chan bool)
	go func() { _ = a.Barrier(); done <- true }()
	go func() { _ = b.Barrier(); done <- true }()
	<-done
	<-done
}
