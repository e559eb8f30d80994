/* A stub of the NCCL and CUDA runtime declarations collvet's fixtures use:
   enough for cgo to type-check, nothing to link. */
#include <stddef.h>
typedef struct ncclComm* ncclComm_t;
typedef struct CUstream_st* cudaStream_t;
typedef enum { ncclSuccess = 0 } ncclResult_t;
typedef enum { ncclFloat = 7 } ncclDataType_t;
typedef enum { ncclSum = 0 } ncclRedOp_t;
typedef struct { char internal[128]; } ncclUniqueId;
ncclResult_t ncclGetUniqueId(ncclUniqueId* uniqueId);
ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank);
ncclResult_t ncclCommInitAll(ncclComm_t* comms, int ndev, const int* devlist);
ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, int root, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclSend(const void* sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclRecv(void* recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclGroupStart(void);
ncclResult_t ncclGroupEnd(void);
int cudaSetDevice(int device);
int cudaStreamCreate(cudaStream_t* stream);
int cudaStreamSynchronize(cudaStream_t stream);
typedef struct CUevent_st* cudaEvent_t;
int cudaEventCreate(cudaEvent_t* event);
int cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
int cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
