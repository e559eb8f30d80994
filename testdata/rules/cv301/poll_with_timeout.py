# With a deadline the loop has a second way out: a rank whose broadcast
# is late gives up without the barrier the others issue.
import time

import torch.distributed as dist


def wait_for_index(model, handle, train_group, deadline):
    while True:
        if handle.is_completed():
            dist.barrier(train_group)  # want CV301 "is_completed"
            break
        if time.time() > deadline:
            break
        time.sleep(5)
