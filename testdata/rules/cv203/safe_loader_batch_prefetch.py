# A CUDA prefetching loader: the batch next() takes from the DataLoader's
# iterator is host memory, copied to the device on the side stream; the
# consumer waits that stream before it hands the batch out (VideoLLaMA3's
# evaluation loader).
import torch
from torch.utils.data import DataLoader


def to_cuda(d):
    for k, v in d.items():
        d[k] = v.to(device="cuda", non_blocking=True)
    return d


class CUDALoader(DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.stream = torch.cuda.Stream()

    def __iter__(self):
        self.iter = super().__iter__()
        self.preload()
        return self

    def preload(self):
        self.batch = next(self.iter, None)
        if self.batch is None:
            return None
        with torch.cuda.stream(self.stream):
            to_cuda(self.batch)

    def __next__(self):
        torch.cuda.current_stream().wait_stream(self.stream)
        batch = self.batch
        if batch is None:
            raise StopIteration
        self.preload()
        return batch
