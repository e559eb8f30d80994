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

// submit is an in-house pool helper: it runs f on a new goroutine.
func submit(f func()) { go f() }

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
				_ = shared.AllReduceF32(mpi.OpSum, j.dest, j.orig) // want `^CV101 Comm.AllReduceF32 on group NewComm@.*main.go:23 is issued from a goroutine started at .*main.go:28, which runs on several threads at once`
			}
		}()
	}
	close(jobs)
	wg.Wait()

	// Tasks handed to the helper run on goroutines of their own.
	tasks, _ := mpi.NewComm(nil)
	for i := 0; i < 3; i++ {
		submit(func() {
			_ = tasks.Barrier() // want `^CV101 Comm.Barrier on group NewComm@.*main.go:39 is issued from a goroutine started at .*main.go:41, which runs on several threads at once`
		})
	}

	// One communicator per goroutine: silent.
	a, _ := mpi.NewComm(nil)
	b, _ := mpi.NewComm(nil)
	done := make(chan bool)
	go func() { _ = a.Barrier(); done <- true }()
	go func() { _ = b.Barrier(); done <- true }()
	<-done
	<-done
}
