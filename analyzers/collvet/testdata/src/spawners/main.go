// Goroutine spawners other than `go`: errgroup, sync.WaitGroup.Go, conc's
// WaitGroup, pool and iter, over gompi communicators (MPI_THREAD_MULTIPLE).
package main

import (
	"sync"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/iter"
	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	mpi "github.com/sbromberger/gompi"
)

func main() {
	mpi.Start(true)
	grads, sum := make([]float64, 8), make([]float64, 8)

	a := mpi.NewCommunicator(nil)
	var g errgroup.Group
	g.Go(func() error {
		return a.AllreduceFloat64s(sum, grads, mpi.OpSum, 0) // want `^CV101 Communicator.AllreduceFloat64s on group NewCommunicator@.*main.go:20 is issued from a goroutine started at .*main.go:22 while the main thread issues Communicator.Barrier`
	})
	a.Barrier()
	_ = g.Wait()

	b := mpi.NewCommunicator(nil)
	p := pool.New().WithMaxGoroutines(4)
	for _, x := range [][]float64{grads, sum} {
		p.Go(func() {
			b.BcastFloat64s(x, 0) // want `^CV101 Communicator.BcastFloat64s on group NewCommunicator@.*main.go:28 is issued from a goroutine started at .*main.go:31, which runs on several threads at once`
		})
	}
	p.Wait()

	c := mpi.NewCommunicator(nil)
	iter.ForEach([][]float64{grads, sum}, func(x *[]float64) {
		c.BcastFloat64s(*x, 0) // want `^CV101 Communicator.BcastFloat64s on group NewCommunicator@.*main.go:37 is issued from a goroutine started at .*main.go:38, which runs on several threads at once`
	})

	d := mpi.NewCommunicator(nil)
	var wg sync.WaitGroup
	wg.Go(func() {
		d.Barrier() // joined right away: silent
	})
	wg.Wait()
	d.Barrier()

	e := mpi.NewCommunicator(nil)
	var cwg conc.WaitGroup
	cwg.Go(func() {
		e.Barrier() // want `^CV101 Communicator.Barrier on group NewCommunicator@.*main.go:50 is issued from a goroutine started at .*main.go:52 while the main thread`
	})
	e.Barrier()
	cwg.Wait()
}
