# A copy pipeline's helpers that touch no device memory of the batch:
# typing.cast, a getter of the object the pipeline already holds, an
# isinstance check, and a helper that only records the batch's memory as
# used by a stream.
from typing import cast

import torch


class Context:
    pass


class CopyPipeline:
    def __init__(self, loader):
        self._loader = loader
        self._memcpy_stream = torch.cuda.Stream()
        self._prefetch_stream = torch.cuda.Stream()
        self._contexts = [Context(), Context()]
        self._batch = None

    def _context(self):
        ctx = self._contexts[1]
        assert isinstance(ctx, Context)
        if self.strict:
            self._check(ctx)
        return ctx

    @staticmethod
    def record_all(res, stream):
        if isinstance(res, torch.Tensor) and res.device.type == "cuda":
            res.record_stream(stream)
        elif isinstance(res, (list, tuple)):
            for v in res:
                CopyPipeline.record_all(v, stream)
        elif isinstance(res, dict):
            for v in res.values():
                CopyPipeline.record_all(v, stream)

    def fetch(self):
        with torch.cuda.stream(self._memcpy_stream):
            self._batch = next(self._loader).to("cuda", non_blocking=True)
        batch = cast(torch.Tensor, self._batch)
        if isinstance(batch, torch.Tensor):
            CopyPipeline.record_all(batch, torch.cuda.current_stream())
        torch.cuda.current_stream().wait_stream(self._memcpy_stream)
        return batch * 2

    def prefetch(self, batch):
        ctx = self._context()
        with torch.cuda.stream(self._prefetch_stream):
            run_prefetch(batch, ctx)
