# A learner that drains the queue its actors fill, forever: each item
# runs the same collectives on every rank, so the k-th item of one rank
# meets the k-th of the others; the empty() poll decides when a step
# runs, not whether (brain-agent's learner). A collective of the outer
# loop beside the drain, or a way out of it, meets a rank still
# draining.
import queue

import torch.distributed as dist


class Learner:
    def __init__(self):
        self.q = queue.Queue()

    def _train(self, grads):
        dist.barrier()
        dist.all_reduce(grads)

    def run(self):
        while True:
            while not self.q.empty():
                self._train(self.q.get())

    def run_with_sync(self, t):
        while True:
            while not self.q.empty():
                dist.all_reduce(self.q.get())  # want CV301 "depends on `not self.q.empty\(\)`"
            dist.all_reduce(t)

    def run_until(self, stop):
        while True:
            while not self.q.empty():
                dist.broadcast(self.q.get(), 0)  # want CV301 "do not leave early"
            if stop.is_set():
                return


def main(q, t):
    dist.init_process_group("nccl")
    serve_passes(q, t)
    serve(q, t)
    Learner().run()  # never returns


def serve(q, t):
    # A busy-wait on the queue: an empty poll issues nothing and polls
    # again, so each rank broadcasts once per message, whenever it polls
    # (FedScale's parameter server).
    while True:
        if not q.empty():
            msg = q.get()
            if msg is None:
                break
            dist.broadcast(t, src=0)


def serve_passes(q, t):
    # A fixed number of passes: a pass that finds the queue empty loses
    # its broadcast for good.
    for step in range(100):
        if not q.empty():
            q.get()
            dist.reduce(t, dst=0)  # want CV301 "depends on `not q.empty\(\)`"
