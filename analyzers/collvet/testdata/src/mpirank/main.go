// CV301 in Go: collectives under a test of the rank that MPI_Comm_rank
// (or a caller's rank argument) gives; balanced branches and
// point-to-point exchanges split by rank stay silent.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "mpi.h"
import "C"

import (
	"context"
	"time"
	"unsafe"
)

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
	checkpoint(rank, &buf)
	leaveEarly(rank, &buf)
	leaveLoop(rank, &buf)
	reportLast(rank, &buf)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	iterate(ctx, &buf)
	iterateErr(ctx, &buf)
	watch(ctx, &buf)
	C.MPI_Finalize()
}

// iterate: each rank's deadline passes at its own pass; the ranks still
// going wait in the next all-reduce for those that left.
func iterate(ctx context.Context, buf *C.int) {
	for {
		select {
		case <-ctx.Done():
			return
		default:
		}
		C.MPI_Allreduce(unsafe.Pointer(buf), unsafe.Pointer(buf), 1, C.MPI_INT, 0, C.MPI_COMM_WORLD) // want `^CV301 C.MPI_Allreduce on the default group \(WORLD\) runs only on the ranks that do not leave early at .*ctx.Done\(\)`
	}
}

func iterateErr(ctx context.Context, buf *C.int) {
	for i := 0; i < 100; i++ {
		if ctx.Err() != nil {
			break
		}
		C.MPI_Barrier(C.MPI_COMM_WORLD) // want `^CV301 C.MPI_Barrier on the default group \(WORLD\) runs only on the ranks that do not leave early at .*ctx.Err\(\)`
	}
}

// watch: the context ends a wait that issues no collective.
func watch(ctx context.Context, buf *C.int) {
	C.MPI_Barrier(C.MPI_COMM_WORLD)
	select {
	case <-ctx.Done():
		return
	case <-time.After(time.Second):
		*buf = 0
	}
}

// leaveEarly: rank 0 returns before the barrier the others wait in.
func leaveEarly(rank C.int, buf *C.int) {
	if rank == 0 {
		return
	}
	C.MPI_Barrier(C.MPI_COMM_WORLD) // want `^CV301 C.MPI_Barrier on the default group \(WORLD\) runs only on the ranks that do not leave early at .*rank == 0`
}

// leaveLoop: rank 0 leaves the loop; the others' next broadcast waits
// for it.
func leaveLoop(rank C.int, buf *C.int) {
	for i := 0; i < 3; i++ {
		if rank == 0 && i == 1 {
			break
		}
		C.MPI_Bcast(unsafe.Pointer(buf), 1, C.MPI_INT, 0, C.MPI_COMM_WORLD) // want `^CV301 C.MPI_Bcast on the default group \(WORLD\) runs only on the ranks that do not leave early`
	}
}

// reportLast: the ranks other than 0 leave after the last collective;
// rank 0 alone writes the report.
func reportLast(rank C.int, buf *C.int) {
	C.MPI_Barrier(C.MPI_COMM_WORLD)
	if rank != 0 {
		return
	}
	*buf = 1
}

// checkpoint: MPI-IO's _all writes are collective over the file's group;
// only rank 0 writing leaves the others' matching call missing.
func checkpoint(rank C.int, buf *C.int) {
	var fh C.MPI_File
	C.MPI_File_open(C.MPI_COMM_WORLD, nil, 0, 0, &fh)
	if rank == 0 {
		C.MPI_File_write_at_all(fh, 0, unsafe.Pointer(buf), 1, C.MPI_INT, nil) // want `^CV301 C.MPI_File_write_at_all on group fh@`
	}
	C.MPI_File_write_at_all(fh, C.MPI_Offset(4*rank), unsafe.Pointer(buf), 1, C.MPI_INT, nil)
	C.MPI_File_close(&fh)
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
