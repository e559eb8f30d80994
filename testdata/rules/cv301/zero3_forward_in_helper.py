# Each rank skips the evaluation tasks whose result file it finds on its
# own host; the skipped helper runs the forward of the engine it is
# handed, and ZeRO-3 all-gathers the partitioned parameters in every
# forward (tofu's resumed evaluation).
import os

import deepspeed
import torch
import torch.distributed as dist


def get_all_evals(model, x):
    with torch.no_grad():
        return model(x)


def evaluate(net, batches):
    engine, *_ = deepspeed.initialize(model=net, config={"zero_optimization": {"stage": 3}, "train_batch_size": 8})
    for task, x in batches:
        out = f"evals/{task}_{dist.get_rank()}.json"
        if os.path.exists(out):
            continue
        y = get_all_evals(engine, x)  # want CV301 "forward .* runs only on the ranks that do not leave early .*`os.path.exists\(out\)`"
        torch.save(y, out)
    dist.barrier()
