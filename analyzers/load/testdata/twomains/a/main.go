// Program a: MPI_Init (single); a goroutine issues the Allreduce: CV104 is right here.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "mpi.h"
import "C"

func main() {
	C.MPI_Init(nil, nil)
	done := make(chan bool)
	go func() {
		C.MPI_Allreduce(nil, nil, 1, C.MPI_INT, C.MPI_SUM, C.MPI_COMM_WORLD)
		done <- true
	}()
	<-done
	C.MPI_Finalize()
}
