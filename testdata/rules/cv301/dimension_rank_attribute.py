# A rank kept under its dimension's name (`self.ep_rank`,
# `self.expert_parallel_rank`) is this process's rank in that group:
# a test of it splits the group's own members and the default group's.
import torch
import torch.distributed as dist


class ExpertCommunicator:
    def __init__(self, expert_parallel_size, expert_parallel_rank):
        self.expert_parallel_size = expert_parallel_size
        self.expert_parallel_rank = expert_parallel_rank
        self.expert_group = dist.new_group(ranks=list(range(expert_parallel_size)))

    def exchange(self, send_buffers, send_counts, hidden):
        counts = [torch.zeros(self.expert_parallel_size, dtype=torch.int32) for _ in range(self.expert_parallel_size)]
        dist.all_gather(counts, torch.tensor(send_counts, dtype=torch.int32), group=self.expert_group)
        receive = [c[self.expert_parallel_rank].item() for c in counts]
        total = sum(receive)
        out = torch.zeros(total, hidden)
        if total > 0:
            dist.all_to_all_single(out, torch.cat(send_buffers), output_split_sizes=receive,  # want CV301 "all_to_all_single"
                                   input_split_sizes=send_counts, group=self.expert_group)
        return out


class Layer:
    def __init__(self, tp_rank, tp_group, ep_rank):
        self.tp_rank = tp_rank
        self.tp_group = tp_group
        self.ep_rank = ep_rank

    def sync_tp(self, x):
        if self.tp_rank == 0:
            dist.all_reduce(x, group=self.tp_group)  # want CV301 "`self.tp_rank == 0`"

    def sync_world(self, x):
        if self.ep_rank == 0:
            dist.all_reduce(x)  # want CV301 "`self.ep_rank == 0`"
