# torchrec's pipelines: the next DataLoader batch (host memory) is copied
# to the device on the memcpy stream by a helper called with
# non_blocking=True. Like x.to(device, non_blocking=True), the helper reads
# host memory, which no stream writes.
import torch


def _to_device(batch, device, non_blocking):
    return batch.to(device=device, non_blocking=non_blocking)


class Pipeline:
    def __init__(self, model, device):
        self._model = model
        self._device = device
        self._memcpy_stream = torch.cuda.Stream()
        self._cur_batch = None

    def _connect(self, dataloader_iter):
        cur_batch = next(dataloader_iter)
        with torch.cuda.stream(self._memcpy_stream):
            self._cur_batch = _to_device(cur_batch, self._device, non_blocking=True)

    def progress(self, dataloader_iter):
        next_batch = next(dataloader_iter)
        torch.cuda.current_stream().wait_stream(self._memcpy_stream)
        out = self._model(self._cur_batch)
        with torch.cuda.stream(self._memcpy_stream):
            self._cur_batch = _to_device(next_batch, self._device, non_blocking=True)
        return out
