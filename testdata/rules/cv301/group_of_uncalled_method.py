# save() is called by a framework, never by the program, so no instance
# value reaches self there: the group comes from the class's own store.
import torch.distributed as dist


class Saver:
    def __init__(self):
        self.pg = dist.new_group(backend="gloo")

    def save(self, t):
        if dist.get_rank() == 0:
            dist.all_reduce(t, group=self.pg)  # want CV301 "all_reduce on group new_group@"


saver = Saver()
