# The same helpers, where what they return is still being computed on the
# current stream: a scaled copy of the kept buffer, or an item of a
# tensor the class keeps (an index gathers, a kernel on the current
# stream). The side stream reads them with no wait.
import torch


class ComputedBuffers:
    def __init__(self, table, gpu_id):
        self.table = table.cuda()
        self.stream = torch.cuda.Stream(gpu_id)
        self.bufs = {}

    def get_scaled(self, name):
        buf = self.bufs[name]
        return (buf * 2, buf)

    def rows(self, idx):
        return self.table[idx]

    def read_scaled(self, name, consume):
        scaled, buf = self.get_scaled(name)
        with torch.cuda.stream(self.stream):
            consume(scaled)  # want CV203 "\"scaled\" is written on the current stream"

    def read_rows(self, idx, consume):
        first, second = self.rows(idx)
        with torch.cuda.stream(self.stream):
            consume(first)  # want CV203 "\"first\" is written on the current stream"


class PassedTable:
    # The helper's "dictionary" is a tensor at this call: its item is a
    # gather on the current stream.
    def __init__(self, table, gpu_id):
        self.table = table.cuda()
        self.stream = torch.cuda.Stream(gpu_id)

    def pick(self, idx, source):
        return source[idx]

    def read(self, idx, consume):
        rows = self.pick(idx, self.table)
        with torch.cuda.stream(self.stream):
            consume(rows)  # want CV203 "\"rows\" is written on the current stream"
