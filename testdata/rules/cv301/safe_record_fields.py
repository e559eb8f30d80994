# A record built by keyword holds this rank's data-loader state beside
# counters every rank keeps alike: lingua's train_state.acc_step, tested
# before the optimizer step, is not rank-dependent because its
# data_loader_state is.
from dataclasses import dataclass

import torch.distributed as dist


@dataclass
class TrainState:
    step: int
    acc_step: int
    data_loader_state: dict


def loader_state(rank, world):
    return {"rank": rank, "world": world}


def train(model, batches, grad_acc_steps):
    dp_rank = dist.get_rank()
    train_state = TrainState(step=0, acc_step=0, data_loader_state=loader_state(dp_rank, dist.get_world_size()))
    for batch in batches:
        train_state.acc_step = (train_state.acc_step + 1) % grad_acc_steps
        loss = model(batch)
        if train_state.acc_step == 0:
            dist.all_reduce(loss)
            train_state.step += 1
