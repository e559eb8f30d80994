# NeMo-RL's prefetching iterator: a tensor produced on a
# side stream is only stored in a deque together with an event recorded after the
# write; the consumer makes its stream wait on that event before using it.
from collections import deque

import torch
import torch.distributed as dist


class Prefetcher:
    def __init__(self, it):
        self._it = it
        self._queue = deque()
        self._stream = torch.cuda.Stream()

    def fill(self):
        with torch.cuda.stream(self._stream):
            tensor = next(self._it).contiguous().view(-1)
            event = torch.cuda.Event()
            event.record(self._stream)
        self._queue.append((event, tensor))  # host-side bookkeeping, no device read

    def next_on(self, consumer):
        event, tensor = self._queue.popleft()
        consumer.wait_event(event)
        return tensor


def send_all(it, group):
    p = Prefetcher(it)
    p.fill()
    t = p.next_on(torch.cuda.current_stream())
    dist.broadcast(t, src=0, group=group)
