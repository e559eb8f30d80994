# Megatron's stream_acquire_context(): a @contextmanager of the program
# that makes the stream wait for the event before the body and records
# the event on the stream after it. The output is handed on after that
# record, so the next node can wait on the event.
import contextlib

import torch


@contextlib.contextmanager
def stream_acquire_context(stream, event):
    event.wait(stream)
    try:
        yield
    finally:
        event.record(stream)


class ScheduleNode:
    def __init__(self, forward_func, stream, event):
        self.forward_func = forward_func
        self.stream = stream
        self.event = event

    def forward(self, inputs):
        with stream_acquire_context(self.stream, self.event):
            with torch.cuda.stream(self.stream):
                self.output = self.forward_func(inputs)
        return self.output
