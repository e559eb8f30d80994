# The exit is agreed first (an all-reduced flag), or the object exists on
# every rank; a broadcast result received in the followers' arm is no
# rank-only object.
import torch
import torch.distributed as dist


def try_alloc():
    return None


def agreed_break(chunks, group):
    rank = dist.get_rank()
    for chunk in chunks:
        dist.all_reduce(chunk, group=group)
        full = try_alloc() if rank == 0 else object()
        stop = torch.tensor([1 if full is None else 0])
        dist.all_reduce(stop, group=group)
        if int(stop.item()) > 0:
            break


class Storage:
    pass


def everywhere(chunks):
    storage = Storage()
    for chunk in chunks:
        dist.all_reduce(chunk)
        if storage is None:
            break


def followers(commands, execute):
    if dist.get_rank() == 0:
        for c in commands:
            dist.broadcast_object_list([c], src=0)
        dist.broadcast_object_list([None], src=0)
    else:
        while True:
            box = [None]
            dist.broadcast_object_list(box, src=0)
            command = box[0]
            if command is None:
                break
            execute(command)


def scattered(base_iter, rank, scatter):
    # Both arms of the rank test bind data: every rank holds it after.
    while True:
        if rank == 0:
            data = scatter([next(base_iter, None)])
        else:
            data = scatter(None)
        if data is None:
            break
        dist.all_reduce(data)


def both_arms_build(t, make_loader, make_other):
    # Each arm binds a loader: every rank holds one after the if.
    if dist.get_rank() == 0:
        eval_loader = make_loader()
    else:
        eval_loader = make_other()
    if eval_loader is not None:
        dist.all_reduce(t)


def none_then_rebuilt(t, make_loader):
    # The else arm's None is replaced on every rank before the test.
    if dist.get_rank() == 0:
        eval_loader = make_loader()
    else:
        eval_loader = None
    eval_loader = make_loader()
    if eval_loader is not None:
        dist.all_reduce(t)


def load_state(cfg):
    return 1, 2


def resume(cfg, acc):
    # Every path binds the epoch: rank 0's arm among others, but the
    # first arm binds it on every rank too (ViewDiff's
    # maybe_continue_training).
    if cfg.resume:
        step, first_epoch = load_state(cfg)
    elif dist.get_rank() == 0:
        step, first_epoch = load_state(cfg)
    else:
        step, first_epoch = 0, 0
    return step, first_epoch


def from_resume(cfg, acc, t):
    step, first_epoch = resume(cfg, acc)
    if first_epoch is not None:
        dist.all_reduce(t)


class EveryRankTrainer:
    def __init__(self, model, eval_fn=None):
        self.model = model
        self.eval_fn = eval_fn
        self.step = 0

    def train(self, epochs, t):
        for _ in range(epochs):
            dist.all_reduce(t)
            if self.eval_fn is not None:
                dist.barrier()


def run_with_every_rank_eval(model, t):
    # Every rank builds the evaluator; rank 0 only logs.
    def eval_fn(m):
        return m

    if dist.get_rank() == 0:
        print("evaluating")
    EveryRankTrainer(model, eval_fn=eval_fn).train(3, t)
