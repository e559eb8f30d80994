# The side stream waits for the current stream before it reads what
# another method wrote there; a bank written only by the constructor; a
# bank another method writes on the same side stream; and a caller that
# makes the side stream wait before each call.
import torch
from torch.nn import Module, Parameter


class WaitsFirst(Module):
    def __init__(self, n, dim):
        super().__init__()
        self.weight = torch.zeros(n, dim, device="cuda")
        self.index = None
        self.sub_weight = Parameter(self.weight)
        self.stream = torch.cuda.Stream()

    @torch.no_grad()
    def update(self):
        self.weight[self.index] = self.sub_weight

    def prepare(self, index):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            self.index = index
            self.sub_weight = Parameter(self.weight[index])


class ConstructorOnly(Module):
    def __init__(self, n, dim):
        super().__init__()
        self.table = torch.randn(n, dim, device="cuda")
        self.stream = torch.cuda.Stream()

    def lookup(self, index):
        with torch.cuda.stream(self.stream):
            return self.table[index]


class SameStream(Module):
    def __init__(self, n, dim):
        super().__init__()
        self.bank = torch.zeros(n, dim, device="cuda")
        self.stream = torch.cuda.Stream()

    def refresh(self, rows, values):
        with torch.cuda.stream(self.stream):
            self.bank[rows] = values

    def lookup(self, index):
        with torch.cuda.stream(self.stream):
            return self.bank[index]


class CallerWaits(Module):
    def __init__(self, n, dim):
        super().__init__()
        self.weight = torch.zeros(n, dim, device="cuda")
        self.stream = torch.cuda.Stream()

    @torch.no_grad()
    def update(self, rows, values):
        self.weight[rows] = values

    def prepare(self, index):
        with torch.cuda.stream(self.stream):
            return self.weight[index]


def train(batches):
    model = CallerWaits(1024, 16)
    for rows, values, index in batches:
        model.stream.wait_stream(torch.cuda.current_stream())
        model.prepare(index)
        model.update(rows, values)
