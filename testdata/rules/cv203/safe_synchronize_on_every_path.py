# Both arms synchronize the device, and the other method sends inside
# the arm that synchronized: every send is ordered after the write.
import torch
import torch.distributed as dist


class Stage:
    def __init__(self, model, rank, world_size, timing=False):
        self.model = model
        self.rank, self.world_size = rank, world_size
        self.timing = timing
        self.com_stream = torch.cuda.Stream()

    def step(self, x, outstanding):
        y = self.model(x)
        if self.timing:
            torch.cuda.synchronize()
        else:
            torch.cuda.synchronize()
        with torch.cuda.stream(self.com_stream):
            outstanding.append(dist.isend(y, dst=(self.rank + 1) % self.world_size))
        return y

    def step_timed(self, x, outstanding):
        y = self.model(x)
        if self.timing:
            torch.cuda.synchronize()
            with torch.cuda.stream(self.com_stream):
                outstanding.append(dist.isend(y, dst=(self.rank + 1) % self.world_size))
        return y


def stream_chunks(model, chunks, com_stream, rank, world_size, every):
    # Inside the loop, the send sits in the arm that synchronized.
    outstanding = []
    for i, x in enumerate(chunks):
        y = model(x)
        if i % every == 0:
            torch.cuda.synchronize()
            with torch.cuda.stream(com_stream):
                outstanding.append(dist.isend(y, dst=(rank + 1) % world_size))
    for w in outstanding:
        w.wait()
