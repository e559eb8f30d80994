# The heads' group strides by one count and the test by another, or the
# test picks the heads while the collective is on the whole world.
import torch.distributed as dist


def main(local_cnt, other_cnt):
    heads = dist.new_group(list(range(0, dist.get_world_size(), local_cnt)))
    if dist.get_rank() % other_cnt == 0:
        dist.barrier(heads)  # want CV301 "runs only when"
    if dist.get_rank() % local_cnt == 0:
        dist.barrier()  # want CV301 "runs only when"
