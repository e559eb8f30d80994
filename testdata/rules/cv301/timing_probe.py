# Conditions each rank answers at its own moment: the clock, and whether
# concurrent work has finished. Ranks do not run in step, so near the
# threshold some take the branch and others do not (Lightning broadcasts
# its time-based checkpoint and max_time decisions from rank 0 for this
# reason).
import math
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist
from mpi4py import MPI


class TimedCheckpoint:
    def __init__(self, interval):
        self.interval = interval
        self.last = time.monotonic()

    def on_step_end(self, state):
        # Each rank reads its own clock: one may be past the interval
        # while another is not, and only the first gathers.
        if time.monotonic() - self.last > self.interval:
            dist.all_gather_object([None] * dist.get_world_size(), state)  # want CV301 "reads the clock.*asks whether concurrent work has finished"
            self.last = time.monotonic()


def train(loader, model, deadline):
    for batch in loader:
        elapsed = time.time()
        if elapsed > deadline:
            break
        loss = model(batch)
        dist.all_reduce(loss)  # want CV301 "runs only on the ranks that do not leave early"


class AsyncSaver:
    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.pending = None

    def save(self, state):
        self.pending = self.pool.submit(write, state)

    def maybe_finish(self):
        # The previous save may have finished on some ranks only.
        if self.pending.running():
            return False
        dist.barrier()  # want CV301 "runs only on the ranks that do not leave early"
        return True


def serve(stop: threading.Event, grads):
    while True:
        # A stop requested from another thread is seen by each rank at
        # its own step.
        if stop.is_set():
            break
        dist.all_reduce(grads)  # want CV301 "leave early at .*stop.is_set"


def drain(q: queue.Queue, t):
    if not q.empty():
        dist.broadcast(t, src=0)  # want CV301 "asks whether concurrent work has finished"


def poll(comm, buf):
    if comm.Iprobe(source=MPI.ANY_SOURCE):
        comm.Barrier()  # want CV301 "reads the clock"


def write(state):
    torch.save(state, "ckpt.pt")


from lightning.pytorch.callbacks import Callback


class StopOnTime(Callback):
    # Each rank compares its own clock with the budget, and those past it
    # save (Trainer.save_checkpoint ends with a barrier) while the others
    # go on to the next step's collectives.
    def __init__(self, budget, path):
        self.start = time.monotonic()
        self.budget = budget
        self.path = path

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        if time.monotonic() - self.start >= self.budget:
            trainer.save_checkpoint(self.path)  # want CV301 "reads the clock"
            trainer.should_stop = True


class Timer(Callback):
    # The clock is read inside a helper; each rank compares its own
    # elapsed time with the budget.
    def __init__(self, duration):
        self.start = time.monotonic()
        self.duration = duration

    def time_elapsed(self):
        return time.monotonic() - self.start

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        if self.time_elapsed() >= self.duration:
            trainer.save_checkpoint("last.ckpt")  # want CV301 "depends on `self.time_elapsed\(\) >= self.duration`, which reads the clock"


def train_until(deadline, model, loader):
    # Each rank runs as many steps as fit before its own clock passes the
    # deadline.
    it = iter(loader)
    while time.monotonic() < deadline:
        loss = model(next(it))
        dist.all_reduce(loss)  # want CV301 "depends on `time.monotonic\(\) < deadline`"


def worker_loop(stop: threading.Event, grads):
    while not stop.is_set():
        dist.all_reduce(grads)  # want CV301 "asks whether concurrent work has finished"


def scaled(x):
    return x * 2


def through_helper(start, t):
    # A helper that returns a value computed from the clock reading,
    # without agreeing on it.
    late = scaled(time.monotonic() - start)
    if late > 10:
        dist.barrier()  # want CV301 "depends on `late > 10`"


def fit_until_deadline(buf, hours, t0):
    # A `while True:` whose broadcast sits under the clock test is no
    # command loop (the followers of one receive in every pass): each rank
    # reads its clock at its own moment (ultralytics' time-limited epochs).
    while True:
        if time.time() - t0 > hours * 3600:
            dist.broadcast(buf, src=0)  # want CV301 "reads the clock"
        dist.barrier()


class TimeBudgetTrainer:
    # ultralytics' time= budget: the epoch count is recomputed from this
    # rank's clock and kept on the trainer; the test on it differs
    # between ranks at the boundary.
    def fit(self, buf, hours, start):
        epoch = 0
        while True:
            self.epochs = math.ceil(hours * 3600 / ((time.time() - start) / (epoch + 1)))
            if epoch + 1 >= self.epochs:
                dist.all_reduce(buf)  # want CV301 "reads the clock"
            dist.barrier()
            epoch += 1
