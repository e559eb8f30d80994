# torch.multiprocessing.spawn calls its function with the process index
# first: that parameter is the rank (the DDP tutorial's train(rank, …)).
import torch.distributed as dist
import torch.multiprocessing as mp


def train(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    if rank == 0:
        dist.all_reduce(None)  # want CV301 "all_reduce on the default group \(WORLD\) runs only when `rank == 0` holds"


class Job:
    def worker(self, local_rank, cfg):
        if local_rank != 0:
            return
        dist.barrier()  # want CV301 "barrier"

    def launch(self, n):
        mp.spawn(self.worker, args=({},), nprocs=n)


if __name__ == "__main__":
    mp.spawn(train, args=(2,), nprocs=2, join=True)
