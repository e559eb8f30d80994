# The same read that attaches a description, not the job: nothing tells
# the caller to wait, and the tensor is still being written.
import torch
import extlib_cuda as extlib


class DescribedReader:
    def __init__(self, embed, gpu_id):
        self.embed = embed
        self.stream = torch.cuda.Stream(gpu_id)
        self.out = torch.empty(1024, 16, device="cuda")

    def read(self, indices, info):
        out = self.out
        with torch.cuda.stream(self.stream):
            extlib.read_rows(indices, self.embed, out)
            submat = out[: indices.shape[0]] * 1.0
            submat.source_info = info
        return submat  # want CV203 "\"submat\" is written on self.stream"
