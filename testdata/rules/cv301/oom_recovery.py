# A rank that runs out of memory recovers and moves on, while the other
# ranks wait in the DDP gradient all-reduce for it (R15, Composer's
# automatic micro-batching before its fix).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(net, loader, opt):
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()  # want CV301 "is skipped on a rank that runs out of memory"
        except torch.cuda.OutOfMemoryError:
            torch.cuda.empty_cache()
            continue
        opt.step()


def train_step(model, x):
    loss = model(x).sum()
    loss.backward()


def retry_smaller(net, batches, opt):
    model = DDP(net)
    for x in batches:
        while True:
            try:
                train_step(model, x)  # want CV301 "the handler at"
                break
            except RuntimeError as e:
                if "out of memory" not in str(e):
                    raise
                x = x[: len(x) // 2]


def log_after(net, loader, opt):
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
        except RuntimeError as e:
            if "CUDA out of memory" in str(e):
                continue
            raise
        dist.all_reduce(loss)  # want CV301 "all_reduce"


def injected(net, loader, opt, rank):
    # flyte-sdk's reproducer: the handler's continue, nested in a rank
    # test, skips the backward after the if.
    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        if rank == 1:
            try:
                torch.empty(5_000_000_000, device="cuda")
            except torch.cuda.OutOfMemoryError:
                torch.cuda.empty_cache()
                continue
        loss.backward()  # want CV301 "is skipped on a rank that runs out of memory"
        opt.step()


def log_probs(model, ids):
    return model(ids).log_softmax(-1).mean()


def grpo_step(net, batches, opt, rank):
    # MiniQ-VL's GRPO loop: the forward runs inside a helper handed the
    # DDP model.
    model = DDP(net)
    for ids in batches:
        try:
            loss = -log_probs(model, ids)
            loss.backward()  # want CV301 "is skipped on a rank that runs out of memory"
            opt.step()
        except torch.cuda.OutOfMemoryError:
            print(f"[rank{rank}] OOM, skipping the step")
            continue


def accelerate_test_step(net, loader, opt):
    # accelerate's should_reduce_batch_size(e) asks the same question as
    # `"out of memory" in str(e)` (uniem's retrying decorator).
    from accelerate.utils.memory import should_reduce_batch_size

    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()  # want CV301 "is skipped on a rank that runs out of memory"
            opt.step()
        except Exception as e:
            if should_reduce_batch_size(e):
                continue
            raise
