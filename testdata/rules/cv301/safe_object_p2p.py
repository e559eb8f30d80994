# Pipeline shape inference: each stage receives its input's metadata from
# the previous stage's rank and sends its output's to the next one, by
# send_object_list / recv_object_list split by rank (point-to-point).
import torch.distributed as dist


class Stage:
    def __init__(self, idx, n, group=None):
        self.idx, self.n, self.group = idx, n, group
        self.group_rank = dist.get_rank(group)
        self.stage_to_rank = {i: i % dist.get_world_size(group) for i in range(n)}

    def infer(self, meta):
        if self.idx == 0 or self.stage_to_rank[self.idx - 1] == self.group_rank:
            pass
        else:
            objs = [None]
            dist.recv_object_list(objs, src=self.stage_to_rank[self.idx - 1], group=self.group)
            meta = objs[0]
        if self.idx == self.n - 1 or self.stage_to_rank[self.idx + 1] == self.group_rank:
            pass
        else:
            dist.send_object_list([meta], dst=self.stage_to_rank[self.idx + 1], group=self.group)
        return meta
