# An object only rank 0 holds decides a loop exit after a collective
# (LMCache's rank-0 CPU cache): the other ranks go on to the next pass's
# collective alone.
import torch
import torch.distributed as dist


def try_alloc():
    return None


def nested_break(chunks, group):
    rank = dist.get_rank()
    for chunk in chunks:
        out = [torch.empty_like(chunk) for _ in range(dist.get_world_size(group))]
        dist.all_gather(out, chunk, group=group)  # want CV301 "do not leave early"
        if rank == 0:
            if try_alloc() is None:
                break


class Storage:
    def allocate(self):
        return None


def object_or_none(chunks):
    storage = Storage() if dist.get_rank() == 0 else None
    for chunk in chunks:
        dist.all_reduce(chunk)  # want CV301 "storage is not None"
        if storage is not None and storage.allocate() is None:
            break


def assigned_in_rank_arm(chunks):
    storage = None
    if dist.get_rank() == 0:
        storage = Storage()
    for chunk in chunks:
        dist.all_reduce(chunk)  # want CV301 "`storage`"
        if storage:
            break


def none_in_else_arm(t, make_loader):
    # Both arms bind it, but the else arm binds None: only rank 0 holds a
    # loader (immunefold's rank-0 eval loader).
    if dist.get_rank() == 0:
        eval_loader = make_loader()
    else:
        eval_loader = None
    if eval_loader is not None:
        dist.all_reduce(t)  # want CV301 "eval_loader is not None"


def setup_eval(make_loader):
    data_rank = dist.get_rank()
    if data_rank == 0:
        eval_loader = make_loader()
    else:
        eval_loader = None
    return "general", eval_loader


def setup_one(make_loader):
    return make_loader() if dist.get_rank() == 0 else None


def from_helper(t, make_loader):
    # The helper hands back what only rank 0 built, alone or in a tuple
    # (immunefold's setup_dataset).
    kind, eval_loader = setup_eval(make_loader)
    if eval_loader is not None:
        dist.all_reduce(t)  # want CV301 "eval_loader is not None"
    loader = setup_one(make_loader)
    if loader:
        dist.barrier()  # want CV301 "`loader`"


class EvalTrainer:
    def __init__(self, model, eval_fn=None):
        self.model = model
        self.eval_fn = eval_fn
        self.step = 0

    def train(self, epochs, t):
        for _ in range(epochs):
            dist.all_reduce(t)
            if self.eval_fn is not None:
                dist.barrier()  # want CV301 "self.eval_fn is not None"


def run_with_rank0_eval(model, t):
    # Only rank 0 builds an evaluator; the trainer keeps what it was
    # handed (Primus-DLRM's eval_fn).
    eval_fn = None
    if dist.get_rank() == 0:
        def eval_fn(m):
            return m

    EvalTrainer(model, eval_fn=eval_fn).train(3, t)
