# An event kept on the object lets the next user wait, but only for work
# on the stream it was recorded on: recording it on another stream leaves
# the side stream's write unordered for whoever takes the output.
import torch


class Node:
    def __init__(self, fn):
        self.fn = fn
        self.side = torch.cuda.Stream()
        self.other = torch.cuda.Stream()
        self.event = torch.cuda.Event()

    def forward(self, x):
        with torch.cuda.stream(self.side):
            self.out = self.fn(x)
        self.event.record(self.other)
        return self.out  # want CV203 "\"self.out\" is written on self.side"
