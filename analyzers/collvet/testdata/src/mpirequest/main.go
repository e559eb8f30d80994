// CV401: a nonblocking MPI request that is never waited; waited and
// escaping requests stay silent.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include
// #include "mpi.h"
import "C"

import "unsafe"

func leak(buf []int32, peer C.int) {
	var req C.MPI_Request
	C.MPI_Isend(unsafe.Pointer(&buf[0]), C.int(len(buf)), C.MPI_INT, peer, 0, C.MPI_COMM_WORLD, &req) // want `^CV401 .*req.*never waited`
}

func exchange(out, in []int32, peer C.int) {
	var reqs [2]C.MPI_Request
	C.MPI_Isend(unsafe.Pointer(&out[0]), C.int(len(out)), C.MPI_INT, peer, 0, C.MPI_COMM_WORLD, &reqs[0])
	C.MPI_Irecv(unsafe.Pointer(&in[0]), C.int(len(in)), C.MPI_INT, peer, 0, C.MPI_COMM_WORLD, &reqs[1])
	C.MPI_Waitall(2, &reqs[0], nil)
}

func start(buf []int32, peer C.int) *C.MPI_Request {
	req := new(C.MPI_Request)
	C.MPI_Irecv(unsafe.Pointer(&buf[0]), C.int(len(buf)), C.MPI_INT, peer, 0, C.MPI_COMM_WORLD, req)
	return req // the caller waits
}

// isend stores the request through the caller's pointer, by way of a
// local alias (a binding's out-parameter): the caller waits it.
func isend(buf []int32, peer C.int, request *C.MPI_Request) {
	p := (*C.MPI_Request)(request)
	C.MPI_Isend(unsafe.Pointer(&buf[0]), C.int(len(buf)), C.MPI_INT, peer, 0, C.MPI_COMM_WORLD, p)
}

func main() {
	C.MPI_Init(nil, nil)
	buf := make([]int32, 4)
	leak(buf, 1)
	exchange(buf, buf, 1)
	r := start(buf, 1)
	C.MPI_Wait(r, nil)
	var sent C.MPI_Request
	isend(buf, 1, &sent)
	C.MPI_Wait(&sent, nil)
	C.MPI_Finalize()
}
