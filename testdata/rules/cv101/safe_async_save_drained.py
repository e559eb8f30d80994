# UniRL's FSDP backend: a save first waits for the previous async save
# (a process-wide future), then agrees on the directory with a broadcast
# on the save group, then starts the next async save. The broadcast runs
# while no save is in flight.
from concurrent.futures import Future
from typing import Optional

import torch.distributed as dist
import torch.distributed.checkpoint as dcp

_PENDING: Optional[Future] = None
_GLOO = None


def gloo_group():
    global _GLOO
    if _GLOO is None:
        _GLOO = dist.new_group(backend="gloo")
    return _GLOO


def _drain_pending() -> None:
    global _PENDING
    future = _PENDING
    if future is not None:
        future.result()
        _PENDING = None


def _prepare(path, group):
    box = [None]
    dist.broadcast_object_list(box, src=0, group=group)


class Backend:
    def _drain(self):
        _drain_pending()

    def save(self, state, path):
        global _PENDING
        self._drain()
        pg = gloo_group()
        _prepare(path, pg)
        _PENDING = dcp.async_save(state, checkpoint_id=path, process_group=pg)
