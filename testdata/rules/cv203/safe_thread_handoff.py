# Tensors handed to a thread (Thread(args=...), pool.submit(fn, x)) are
# read by the thread's function, which here synchronises the copy stream
# first: the spawn itself reads nothing on the current stream.
import threading
from concurrent.futures import ThreadPoolExecutor

import torch


def average_on_host(avg, snapshot, decay, copy_stream=None):
    if copy_stream is not None:
        copy_stream.synchronize()
    for a, s in zip(avg, snapshot):
        a.mul_(decay).add_(s, alpha=1 - decay)


class HostAverager:
    def __init__(self, params, decay):
        self.params = params
        self.avg = [p.detach().cpu() for p in params]
        self.decay = decay
        self.stream = torch.cuda.Stream()
        self.pool = ThreadPoolExecutor(max_workers=1)

    def update(self):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            snapshot = tuple(p.data.to("cpu", non_blocking=True) for p in self.params)
        worker = threading.Thread(target=average_on_host, args=(self.avg, snapshot, self.decay, self.stream))
        worker.start()
        return worker

    def update_pooled(self):
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            snapshot = tuple(p.data.to("cpu", non_blocking=True) for p in self.params)
        return self.pool.submit(average_on_host, self.avg, snapshot, self.decay, copy_stream=self.stream)
