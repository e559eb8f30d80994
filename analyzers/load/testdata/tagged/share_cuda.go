//go:build cuda

package main

/*
typedef struct ncclComm* ncclComm_t;
typedef struct CUstream_st* cudaStream_t;
typedef enum { ncclSuccess = 0 } ncclResult_t;
typedef enum { ncclFloat = 7 } ncclDataType_t;
typedef enum { ncclSum = 0 } ncclRedOp_t;
typedef struct { char internal[128]; } ncclUniqueId;
static ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank) { return ncclSuccess; }
static ncclResult_t ncclAllReduce(const void* s, void* r, unsigned long n, ncclDataType_t t, ncclRedOp_t op, ncclComm_t comm, cudaStream_t st) { return ncclSuccess; }
*/
import "C"

import (
	"runtime"
	"sync"
)

func shared() {
	var id C.ncclUniqueId
	var comm C.ncclComm_t
	C.ncclCommInitRank(&comm, 2, id, 0)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			runtime.LockOSThread()
			defer wg.Done()
			C.ncclAllReduce(nil, nil, 4, C.ncclFloat, C.ncclSum, comm, nil)
		}()
	}
	wg.Wait()
}

var global C.ncclComm_t

// reduceGlobal is all-reduced from a goroutine and the caller in the tests.
func reduceGlobal() {
	C.ncclAllReduce(nil, nil, 4, C.ncclFloat, C.ncclSum, global, nil)
}
