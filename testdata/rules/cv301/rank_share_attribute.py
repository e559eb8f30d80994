# One method keeps this rank's share of a count, computed by a helper
# from the rank; another tests the share around collectives. With fewer
# items than ranks some ranks hold 0 and skip the gather the others issue
# (mdt's rollout callback).
import torch.distributed as dist


def divide_across_ranks(n, world_size, rank):
    return n // world_size + (1 if n % world_size > rank else 0)


class Rollout:
    def __init__(self, num_videos):
        self.num_videos = num_videos

    def on_validation_start(self):
        self.num_videos = divide_across_ranks(self.num_videos, dist.get_world_size(), dist.get_rank())

    def on_validation_epoch_end(self, results):
        if self.num_videos > 0:
            out = [None] * dist.get_world_size()
            dist.all_gather_object(out, results)  # want CV301 "runs only when `self.num_videos > 0` holds"
        dist.barrier()
