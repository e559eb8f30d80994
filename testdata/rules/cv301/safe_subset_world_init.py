# Only the ranks listed in `ranks` rendezvous, and the new default group is
# sized len(ranks): the ranks outside the list never join it.
import torch
import torch.distributed as dist


class Updater:
    def __init__(self, rank):
        self.rank = rank

    def init_pg_for_ranks(self, ranks, addr, port):
        if self.rank not in ranks:
            return
        vrank = ranks.index(self.rank)
        store = dist.TCPStore(addr, port, len(ranks), is_master=vrank == 0)
        dist.init_process_group("nccl", world_size=len(ranks), rank=vrank, store=store)

    def update(self, ranks, addr, port, buf):
        self.init_pg_for_ranks(ranks, addr, port)
        if self.rank not in ranks:
            return
        dist.barrier()
        dist.broadcast(buf, src=0)
        dist.destroy_process_group()
