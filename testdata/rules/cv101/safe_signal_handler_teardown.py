# One cleanup handler for SIGTERM and SIGINT tears the process group down
# and exits, as the main thread's error path does: the teardown is local,
# no rank pairs it with another rank's collective.
import signal
import sys

import torch.distributed as dist


def _cleanup():
    if dist.is_initialized():
        dist.destroy_process_group()


def _handler(signum, frame):
    _cleanup()
    sys.exit(0)


def worker(step):
    signal.signal(signal.SIGTERM, _handler)
    signal.signal(signal.SIGINT, _handler)
    dist.init_process_group("nccl")
    try:
        while True:
            step()
            dist.barrier()
    except Exception:
        _cleanup()
        raise
