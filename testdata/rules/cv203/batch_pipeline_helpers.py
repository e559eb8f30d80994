# The same helpers where the batch is used: a cast is the batch itself, a
# getter that fills the object first writes it, and a helper that sums
# the batch reads it.
from typing import cast

import torch


class CopyPipeline:
    def __init__(self, loader):
        self._loader = loader
        self._memcpy_stream = torch.cuda.Stream()
        self._prefetch_stream = torch.cuda.Stream()
        self._buf = torch.zeros(8, device="cuda")

    def _filled(self):
        buf = self._buf
        buf.fill_(0)
        return buf

    @staticmethod
    def total(res, stream):
        if isinstance(res, torch.Tensor):
            res.record_stream(stream)
            return res.sum()
        return 0

    def fetch(self):
        with torch.cuda.stream(self._memcpy_stream):
            self._batch = next(self._loader).to("cuda", non_blocking=True)
        batch = cast(torch.Tensor, self._batch)
        out = batch * 2  # want CV203 "\"batch\" is written on self._memcpy_stream"
        return out

    def summed(self):
        with torch.cuda.stream(self._memcpy_stream):
            self._batch = next(self._loader).to("cuda", non_blocking=True)
        return CopyPipeline.total(self._batch, torch.cuda.current_stream())  # want CV203 "\"self._batch\" is written on self._memcpy_stream"

    def prefetch(self):
        buf = self._filled()
        with torch.cuda.stream(self._prefetch_stream):
            out = buf * 2  # want CV203 "\"buf\" is written on the current stream"
        torch.cuda.current_stream().wait_stream(self._prefetch_stream)
        return out
