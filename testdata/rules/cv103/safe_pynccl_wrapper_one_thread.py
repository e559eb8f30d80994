# The same binding driven from one thread: sends and receives in order.
import torch
from vllm.distributed.device_communicators.pynccl_wrapper import NCCLLibrary, buffer_type, cudaStream_t


class Engine:
    def __init__(self):
        self.nccl = NCCLLibrary()
        self.stream = torch.cuda.Stream()

    def exchange(self, uid, send, recv, rank):
        comm = self.nccl.ncclCommInitRank(2, uid, rank)
        self.nccl.ncclSend(buffer_type(send.data_ptr()), send.numel(), 7, 1 - rank, comm,
                           cudaStream_t(self.stream.cuda_stream))
        self.nccl.ncclRecv(buffer_type(recv.data_ptr()), recv.numel(), 7, 1 - rank, comm,
                           cudaStream_t(self.stream.cuda_stream))
