// CV301 in Go: collectives under a test of the rank that MPI_Comm_rank
// (or a caller's rank argument) gives; balanced branches and
// point-to-point exchanges split by rank stay silent.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "mpi.h"
import "C"

import "unsafe"

func main() {
	C.MPI_Init(nil, nil)
	var rank C.int
	C.MPI_Comm_rank(C.MPI_COMM_WORLD, &rank)
	buf := C.int(0)
	if rank == 0 {
		buf = 42
		C.MPI_Bcast(unsafe.Pointer(&buf), 1, C.MPI_INT, 0, C.MPI_COMM_WORLD) // want `^CV301 C.MPI_Bcast on the default group \(WORLD\) runs only when .rank == 0. holds`
	}
	report(int(rank), &buf)
	balanced(rank, &buf)
	exchange(rank, &buf)
	C.MPI_Finalize()
}

func report(rank int, buf *C.int) {
	if rank == 0 {
		C.MPI_Barrier(C.MPI_COMM_WORLD) // want `^CV301 C.MPI_Barrier on the default group \(WORLD\) runs only when .rank == 0. holds`
	}
}

func balanced(rank C.int, buf *C.int) {
	if rank == 0 {
		*buf = 7
		C.MPI_Bcast(unsafe.Pointer(buf), 1, C.MPI_INT, 0, C.MPI_COMM_WORLD)
	} else {
		C.MPI_Bcast(unsafe.Pointer(buf), 1, C.MPI_INT, 0, C.MPI_COMM_WORLD)
	}
}

func exchange(rank C.int, buf *C.int) {
	if rank == 0 {
		C.MPI_Send(unsafe.Pointer(buf), 1, C.MPI_INT, 1, 0, C.MPI_COMM_WORLD)
	} else if rank == 1 {
		C.MPI_Recv(unsafe.Pointer(buf), 1, C.MPI_INT, 0, 0, C.MPI_COMM_WORLD, nil)
	}
}
