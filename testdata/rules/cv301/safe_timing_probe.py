# Timing and completion checks that every rank agrees on, or that guard no
# collective.
import logging
import math
import time
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.distributed as dist

log = logging.getLogger(__name__)


class TimedCheckpoint:
    # Lightning's ModelCheckpoint(train_time_interval=...): rank 0's
    # decision is broadcast, and every rank branches on it.
    def __init__(self, interval):
        self.interval = interval
        self.last = time.monotonic()

    def on_step_end(self, state):
        skip = [time.monotonic() - self.last < self.interval]
        dist.broadcast_object_list(skip, src=0)
        if not skip[0]:
            dist.all_gather_object([None] * dist.get_world_size(), state)
            self.last = time.monotonic()


def max_time_reached(start, budget):
    # Lightning's Timer callback: an all-reduced stop flag.
    flag = torch.tensor(float(time.time() - start >= budget))
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    if flag.item() > 0:
        return True
    dist.barrier()
    return False


class AsyncSaver:
    # fairseq2's checkpoint manager: whether the save finished is summed
    # over the ranks, and both arms issue the same collective.
    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.pending = None

    def save(self, state):
        self.pending = self.pool.submit(write, state)

    def maybe_finish(self):
        if self.pending.running():
            done = torch.tensor(0)
        else:
            done = torch.tensor(1)
        dist.all_reduce(done)
        if done.item() != dist.get_world_size():
            return False
        self.pending.result()
        dist.barrier()
        return True


def step(model, batch, last_log):
    loss = model(batch)
    dist.all_reduce(loss)
    # Timing decides only a local log line.
    if time.time() - last_log > 10:
        log.info("loss %s", loss.item())
        last_log = time.time()
    return last_log


def wait_then_sync(fut, t):
    # A wait loop: every rank leaves it once its own work is done, and
    # then issues the same collective.
    while not fut.done():
        time.sleep(0.1)
    dist.all_reduce(t)


def write(state):
    torch.save(state, "ckpt.pt")


from lightning.pytorch.callbacks import Callback


class StopOnTime(Callback):
    # The decision is reduced over the ranks before anyone acts on it
    # (Strategy.reduce_boolean_decision all-reduces it).
    def __init__(self, budget, path):
        self.start = time.monotonic()
        self.budget = budget
        self.path = path

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        should_stop = time.monotonic() - self.start >= self.budget
        should_stop = trainer.strategy.reduce_boolean_decision(should_stop, all=False)
        if should_stop:
            trainer.save_checkpoint(self.path)
            trainer.should_stop = True


class Timer(Callback):
    # Lightning's Timer callback: rank 0's answer is broadcast.
    def __init__(self, duration):
        self.start = time.monotonic()
        self.duration = duration

    def time_elapsed(self):
        return time.monotonic() - self.start

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        should_stop = self.time_elapsed() >= self.duration
        should_stop = trainer.strategy.broadcast(should_stop)
        if should_stop:
            trainer.save_checkpoint("last.ckpt")
            trainer.should_stop = True


class Throughput:
    # A helper that reads the clock, used for a log line only.
    def __init__(self):
        self.start = time.perf_counter()

    def elapsed(self):
        return time.perf_counter() - self.start

    def report(self, tokens):
        dist.all_reduce(tokens)
        if self.elapsed() > 60:
            log.info("tokens/s %s", tokens.item() / self.elapsed())


def train_until(deadline, model, loader):
    # Megatron's exit_duration_in_mins: the ranks all-reduce whether the
    # time is up and leave together.
    it = iter(loader)
    keep_going = True
    while keep_going:
        loss = model(next(it))
        dist.all_reduce(loss)
        flag = torch.tensor(float(time.monotonic() < deadline))
        dist.all_reduce(flag, op=dist.ReduceOp.MIN)
        keep_going = flag.item() > 0


def poll_until_done(fut):
    # A polling loop without collectives.
    while not fut.done():
        time.sleep(0.1)


def all_reduce_value(value, op=dist.ReduceOp.MAX):
    t = torch.tensor(value)
    dist.all_reduce(t, op=op)
    return t.item()


def out_of_time(start, budget, t):
    # OLMo-core's trainer: the local verdict goes through a helper that
    # all-reduces it, and the ranks act on the agreed value.
    local = 1 if time.monotonic() - start > budget else 0
    agreed = all_reduce_value(local)
    if agreed:
        return True
    dist.all_reduce(t)
    return False


class AgreedTimeBudgetTrainer:
    # The budget read from the clock is broadcast before any rank tests
    # it: every rank holds rank 0's answer.
    def fit(self, buf, hours, start, epochs):
        for epoch in range(epochs):
            self.epochs = math.ceil(hours * 3600 / ((time.time() - start) / (epoch + 1)))
            box = [self.epochs]
            dist.broadcast_object_list(box, src=0)
            self.epochs = box[0]
            if epoch + 1 >= self.epochs:
                dist.all_reduce(buf)
            dist.barrier()
