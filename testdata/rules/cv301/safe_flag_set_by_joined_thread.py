# The thread that sets the flag is joined before the flag is read: every
# rank reads it after its own thread set it.
import threading

import torch.distributed as dist

_READY = False


def _prepare():
    global _READY
    _READY = True


def run(obj):
    t = threading.Thread(target=_prepare)
    t.start()
    t.join()
    if _READY:
        dist.broadcast_object_list(obj, src=0)
