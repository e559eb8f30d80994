import functools
import threading

import torch.distributed as dist


def in_thread(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        t = threading.Thread(target=fn, args=args)  # spawn: W
        t.start()
        return t
    return wrapper


@in_thread
def background_sync(t):
    dist.all_reduce(t)  # context: thread@W


def sync_with(group, t):
    dist.barrier(group=group)  # context: thread@P


def main(t):
    background_sync(t)  # calls: decorators.in_thread.wrapper
    pg = dist.new_group([0, 1])
    job = functools.partial(sync_with, pg)
    threading.Thread(target=job, args=(t,)).start()  # spawn: P


main(None)
