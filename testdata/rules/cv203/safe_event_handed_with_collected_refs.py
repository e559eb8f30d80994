# A prefetcher hands the batch on with the event recorded after its
# transform and with the tensors a helper collected from it (references
# kept alive until the consumer has waited the event; RecIS's
# cuda_prefetch_dataset). Collecting references reads no device memory,
# and the consumer waits the event before it uses the batch.
import torch


def _collect(obj, out):
    if torch.is_tensor(obj):
        out.append(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _collect(v, out)


def _refs_of(obj):
    refs = []
    _collect(obj, refs)
    return refs


class Prefetcher:
    def __init__(self, fn, queue):
        self._fn = fn
        self._queue = queue
        self._stream = torch.cuda.Stream()
        self._pending = None

    def stage(self, data):
        with torch.cuda.stream(self._stream):
            out = self._fn(data)
        done = self._stream.record_event()
        self._pending = (out, done, _refs_of(out))

    def stage_to_queue(self, data):
        with torch.cuda.stream(self._stream):
            out = self._fn(data)
        done = self._stream.record_event()
        self._queue.put((out, done, _refs_of(out)))

    def take(self):
        out, done, refs = self._pending
        torch.cuda.current_stream().wait_event(done)
        return out
