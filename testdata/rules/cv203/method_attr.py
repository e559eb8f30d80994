import torch
import torch.distributed as dist


class Reducer:
    def __init__(self):
        self.comm_stream = torch.cuda.Stream()

    def reduce(self, compute):
        self.bucket = compute()
        with torch.cuda.stream(self.comm_stream):
            dist.all_reduce(self.bucket)  # want CV203 "\"self.bucket\""
        torch.cuda.current_stream().wait_stream(self.comm_stream)
