# A follower loop whose test the body itself changes is no endless
# command loop: when a follower stops, rank 0 does not know.
import torch
import torch.distributed as dist


class Handler:
    def __init__(self, model, rank: int):
        self.model = model
        self.rank = rank
        self.world_size = dist.get_world_size()
        meta = [None]
        if self.rank != 0:
            while self.world_size > 1:
                dist.broadcast_object_list(meta, src=0)  # want CV301 "self.rank != 0"
                x = torch.empty(meta[0])
                dist.broadcast(x, src=0)
                self.model(x)
                if meta[0] is None:
                    self.world_size = 1

    def forward(self, x):
        dist.broadcast_object_list([tuple(x.shape)], src=0)
        dist.broadcast(x, src=0)
        return self.model(x)


def main():
    dist.init_process_group("gloo")
    h = Handler(torch.nn.Identity(), dist.get_rank())
    if dist.get_rank() == 0:
        h.forward(torch.ones(2))  # want CV301 "get_rank\(\) == 0"
