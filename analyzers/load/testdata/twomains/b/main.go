// Program b: a separate binary that requests MPI_THREAD_MULTIPLE; its one
// goroutine issues the Allreduce: nothing is wrong here.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "mpi.h"
import "C"

func main() {
	var p C.int
	C.MPI_Init_thread(nil, nil, C.MPI_THREAD_MULTIPLE, &p)
	done := make(chan bool)
	go func() {
		C.MPI_Allreduce(nil, nil, 1, C.MPI_INT, C.MPI_SUM, C.MPI_COMM_WORLD)
		done <- true
	}()
	<-done
	C.MPI_Finalize()
}
