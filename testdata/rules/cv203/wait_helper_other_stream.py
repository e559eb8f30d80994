# The helper waits for the stream it is given, but the caller passes the
# wrong one: the batch was copied on copy_stream.
import torch


def wait_for(stream):
    torch.cuda.current_stream().wait_stream(stream)


class Pipeline:
    def __init__(self, model):
        self.model = model
        self.copy_stream = torch.cuda.Stream()
        self.other_stream = torch.cuda.Stream()
        self.batch = None

    def prefetch(self, cpu_batch):
        with torch.cuda.stream(self.copy_stream):
            self.batch = cpu_batch.to("cuda", non_blocking=True) * 2

    def step(self, cpu_batch):
        self.prefetch(cpu_batch)
        wait_for(self.other_stream)
        return self.model(self.batch)  # want CV203 "written on self.copy_stream"
