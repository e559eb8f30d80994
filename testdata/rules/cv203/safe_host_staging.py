# Checkpoint staging (torchtitan's _cpu_staging shape): the destination is
# fresh pinned host memory, made on the host, so a copy into it on the
# staging stream reads no tensor that device work on another stream is
# still writing. Copies back to the host (.cpu()) are synchronous too.
import torch


class Stager:
    def __init__(self):
        self.staging_stream = torch.cuda.Stream()
        self.buffer = None

    def stage(self, state):
        self.buffer = torch.empty_like(state, device="cpu", pin_memory=True)
        with torch.cuda.stream(self.staging_stream):
            self.buffer.copy_(self.buffer, non_blocking=True)

    def host_copy(self, t):
        host = t.cpu()
        with torch.cuda.stream(self.staging_stream):
            out = host.to("cuda", non_blocking=True)
        torch.cuda.current_stream().wait_stream(self.staging_stream)
        return out
