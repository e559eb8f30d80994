# The leader's arm ends with a barrier the followers' loop never issues:
# no command protocol, the followers wait for a command that never comes.
import torch.distributed as dist


def run(commands):
    if dist.get_rank() == 0:
        for c in commands:
            dist.broadcast_object_list([c], src=0)
        dist.barrier()  # want CV301 "barrier on the default group"
    else:
        while True:
            box = [None]
            dist.broadcast_object_list(box, src=0)
            if box[0] is None:
                break
