# The reference collector takes a ragged tensor apart through its
# accessors (values(), offsets(), weight() hand back tensors the object
# keeps) and only files what it finds: no kernel reads the batch while
# the side stream may still write it (RecIS's _collect_holdables).
import torch


def _collect(obj, out):
    if torch.is_tensor(obj):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            _collect(value, out)
    elif hasattr(obj, "values") and hasattr(obj, "offsets"):
        _collect(obj.values(), out)
        _collect(obj.offsets(), out)
        if hasattr(obj, "weight"):
            _collect(obj.weight(), out)


def _refs_of(obj):
    out = []
    _collect(obj, out)
    return out


class Prefetcher:
    def __init__(self, fn):
        self._fn = fn
        self._stream = torch.cuda.Stream()

    def stage(self, data, ready):
        with torch.cuda.stream(self._stream):
            self._stream.wait_event(ready)
            out = self._fn(data)
        done = self._stream.record_event()
        return out, done, _refs_of(out)

    def take(self, item):
        out, done, refs = item
        torch.cuda.current_stream().wait_event(done)
        return out
