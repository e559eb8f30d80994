# The all_reduce and the early break sit in the two arms of one test
# that every rank answers alike on every pass (a ZeRO-3 flag read from
# the shared config, trl's PPO early stop): a job that can break there
# never reduces. Where the loop itself changes the test, the ranks that
# stay may take the other arm next pass, and the break is reported.
import numpy as np
import torch
import torch.distributed as dist


def zero3_enabled(cfg):
    return cfg["zero_optimization"]["stage"] == 3


def train_minibatch(model, x):
    loss = model(x).pow(2).mean()
    loss.backward()
    return {"policy/policykl": loss.detach()}


def ppo_step(cfg, model, batch, n_epochs=4):
    early_stop = False
    for _ in range(n_epochs):
        if early_stop:
            break
        b_inds = np.random.permutation(batch.shape[0])
        stats = train_minibatch(model, batch[b_inds])
        early_stop = bool(stats["policy/policykl"] > 1.5)
        if zero3_enabled(cfg):
            flag = torch.tensor(0.0 if not early_stop else 1.0).cuda()
            dist.all_reduce(flag, op=dist.ReduceOp.SUM)
            if flag.item() > 0.0:
                break
        elif early_stop:
            break


def ppo_step_switching(cfg, model, batch, n_epochs=4):
    early_stop = False
    reduce_now = False
    for epoch in range(n_epochs):
        b_inds = np.random.permutation(batch.shape[0])
        stats = train_minibatch(model, batch[b_inds])
        early_stop = bool(stats["policy/policykl"] > 1.5)
        if reduce_now:
            flag = torch.tensor(0.0 if not early_stop else 1.0).cuda()
            dist.all_reduce(flag, op=dist.ReduceOp.SUM)  # want CV301 "early_stop"
            if flag.item() > 0.0:
                break
        elif early_stop:
            break
        reduce_now = epoch >= 1


def main(cfg):
    dist.init_process_group("nccl")
    model = torch.nn.Linear(8, 1).cuda()
    batch = torch.randn(16, 8).cuda()
    ppo_step(cfg, model, batch)
    ppo_step_switching(cfg, model, batch)
