# The only synchronize before the send sits in a timing arm that is off
# by default: on the default path nothing orders the send on the
# communication stream after the kernels that wrote y
# (StreamDiffusionV2's schedule_block).
import torch
import torch.distributed as dist


class Stage:
    def __init__(self, model, rank, world_size, schedule_block=False):
        self.model = model
        self.rank, self.world_size = rank, world_size
        self.schedule_block = schedule_block
        self.com_stream = torch.cuda.Stream()

    def step(self, x, outstanding):
        y = self.model(x)
        if self.schedule_block:
            torch.cuda.synchronize()
        with torch.cuda.stream(self.com_stream):
            work = dist.isend(y, dst=(self.rank + 1) % self.world_size)  # want CV203 "\"y\" is written on the current stream"
            outstanding.append(work)
        return y


def stream_chunks(model, chunks, com_stream, rank, world_size, schedule_block):
    # The same inside the loop: a pass that skips the timing arm sends a
    # result nothing has ordered on the communication stream.
    outstanding = []
    for x in chunks:
        y = model(x)
        if schedule_block:
            torch.cuda.synchronize()
        with torch.cuda.stream(com_stream):
            outstanding.append(dist.isend(y, dst=(rank + 1) % world_size))  # want CV203 "\"y\" is written on the current stream"
    for w in outstanding:
        w.wait()
