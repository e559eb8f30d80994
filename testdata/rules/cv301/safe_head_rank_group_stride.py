# One head rank per node (every L-th rank from 0) joins a heads' group, and
# only ranks with rank % L == 0 use it: exactly its members (GraNNDis's
# per-node preprocessing).
import torch.distributed as dist


def main(rank, world_size, local_cnt):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    head_ranks = [i for i in range(0, dist.get_world_size(), local_cnt)]
    head_group = dist.new_group(head_ranks)
    if dist.get_rank() % local_cnt == 0:
        dist.barrier(head_group)
    dist.barrier()
