# TorchDistributedTrial's methods (suggest_*, report, should_prune,
# set_user_attr) broadcast on the trial's process group and must be called by
# every rank ("expected to be called by all workers at once").  Here only rank 0
# calls set_user_attr; it blocks in that broadcast while the other ranks wait
# in the barrier: a hang (a GraphStorm fork's tuning script). Called by
# every rank, as suggest_float is, it pairs up.
import optuna
import torch
import torch.distributed as dist
from optuna.integration import TorchDistributedTrial

TRIALS = 10


def run_distributed_trial(single_trial):
    trial = TorchDistributedTrial(single_trial)
    lr = trial.suggest_float("lr", 1e-4, 1e-1, log=True)
    pruned = lr > 0.05
    if pruned:
        if dist.get_rank() == 0:
            trial.set_user_attr("Pruned", True)  # want CV301 "TorchDistributedTrial.set_user_attr"
    dist.barrier()
    return lr


def tune_with_ask():
    dist.init_process_group("gloo")
    study = optuna.create_study() if dist.get_rank() == 0 else None
    for _ in range(TRIALS):
        single = study.ask() if dist.get_rank() == 0 else None
        value = run_distributed_trial(single)
        if dist.get_rank() == 0:
            study.tell(single, value)


if __name__ == "__main__":
    main()
