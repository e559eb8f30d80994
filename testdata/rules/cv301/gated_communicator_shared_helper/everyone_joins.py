# Every trainer rank makes (and so joins) the communicator here: a
# broadcast only rank 0 issues leaves the others' turn unmatched.
import torch
import torch.distributed as dist

from comm import make_comm


class EveryRankTrainer:
    def setup(self, host, port, world_size):
        self.comm = make_comm(host, port, dist.get_rank(), world_size, torch.cuda.current_device())

    def push(self, params):
        for p in params:
            if dist.get_rank() == 0:
                self.comm.broadcast(p, src=0, stream=torch.cuda.current_stream())  # want CV301 "broadcast"
