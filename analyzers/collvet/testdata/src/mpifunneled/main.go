// CV104: MPI_THREAD_FUNNELED with an MPI call from a goroutine, and with
// the main goroutine not locked to its OS thread.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "mpi.h"
import "C"

func reduce(comm C.MPI_Comm) {
	C.MPI_Allreduce(nil, nil, 1, C.MPI_INT, C.MPI_SUM, comm) // want `^CV104 C.MPI_Allreduce is called from a goroutine started at .*main.go:20, but MPI was initialised with thread level "funneled"`
}

func main() {
	var provided C.int
	C.MPI_Init_thread(nil, nil, C.MPI_THREAD_FUNNELED, &provided) // want `^CV104 MPI is initialised with MPI_THREAD_FUNNELED.*the main goroutine is not locked to its OS thread`
	var sub C.MPI_Comm
	C.MPI_Comm_split(C.MPI_COMM_WORLD, 0, 0, &sub)
	C.MPI_Barrier(C.MPI_COMM_WORLD)
	done := make(chan bool)
	go func() {
		reduce(sub)
		done <- true
	}()
	<-done
	C.MPI_Finalize()
}
