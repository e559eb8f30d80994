# One helper makes the weight-sync communicator for both sides: the
# inference worker calls it unconditionally, the trainer only on rank 0.
from vllm.distributed.device_communicators.pynccl import PyNcclCommunicator
from vllm.distributed.utils import StatelessProcessGroup


def make_comm(host, port, rank, world_size, device):
    pg = StatelessProcessGroup.create(host=host, port=port, rank=rank, world_size=world_size)
    return PyNcclCommunicator(pg, device=device)


class Worker:
    """Lives in the inference engine's process: a member of the link."""

    def init_group(self, host, port, world_size, device):
        self.comm = make_comm(host, port, 1, world_size, device)

    def receive(self, t, stream):
        self.comm.broadcast(t, src=0, stream=stream)
        return t
