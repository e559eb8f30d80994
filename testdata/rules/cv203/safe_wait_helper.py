# A helper that makes the current stream wait for the stream passed to
# it (torchrec's _wait_for_batch) orders the tensors passed with it; an
# identity test (x is None) reads no device memory.
import torch


def wait_for_batch(batch, stream):
    if stream is None:
        return
    torch.cuda.current_stream().wait_stream(stream)
    batch.record_stream(torch.cuda.current_stream())


class Pipeline:
    def __init__(self, model):
        self.model = model
        self.copy_stream = torch.cuda.Stream()
        self.batch = None

    def prefetch(self, cpu_batch):
        with torch.cuda.stream(self.copy_stream):
            self.batch = cpu_batch.to("cuda", non_blocking=True)

    def step(self, cpu_batch):
        if self.batch is None:
            self.prefetch(cpu_batch)
        batch = self.batch
        assert batch is not None
        wait_for_batch(batch, self.copy_stream)
        return self.model(batch)
