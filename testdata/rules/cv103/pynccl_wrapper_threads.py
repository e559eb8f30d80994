# vLLM's ctypes binding of libnccl driven from two threads, each with the
# communicators it makes per peer (a P2P engine's listener and sender).
import threading

import torch
from vllm.distributed.device_communicators.pynccl_wrapper import NCCLLibrary, buffer_type, cudaStream_t


class Engine:
    def __init__(self, inbox, outbox):
        self.nccl = NCCLLibrary()
        self.stream = torch.cuda.Stream()
        self.inbox, self.outbox = inbox, outbox
        threading.Thread(target=self.listen, daemon=True).start()
        threading.Thread(target=self.send_loop, daemon=True).start()

    def listen(self):
        while True:
            uid, t = self.inbox.get()
            comm = self.nccl.ncclCommInitRank(2, uid, 1)
            self.nccl.ncclRecv(buffer_type(t.data_ptr()), t.numel(), 7, 0, comm,  # want CV103 "ncclRecv"
                               cudaStream_t(self.stream.cuda_stream))

    def send_loop(self):
        while True:
            uid, t = self.outbox.get()
            comm = self.nccl.ncclCommInitRank(2, uid, 0)
            self.nccl.ncclSend(buffer_type(t.data_ptr()), t.numel(), 7, 1, comm,  # want CV103 "ncclSend"
                               cudaStream_t(self.stream.cuda_stream))
