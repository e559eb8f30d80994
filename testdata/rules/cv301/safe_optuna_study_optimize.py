# Optuna's DDP example: rank 0 drives the study, whose optimize() runs
# the objective once per trial on the calling thread; the other ranks call
# it as many times themselves, so the broadcast in it pairs up.
import optuna
import torch
import torch.distributed as dist

N_TRIALS = 10


def objective(single_trial):
    number = torch.zeros(1)
    if single_trial is not None:
        number[0] = single_trial.number
    dist.broadcast(number, src=0)
    return float(number.item())


def main():
    dist.init_process_group("gloo")
    if dist.get_rank() == 0:
        study = optuna.create_study()
        study.optimize(objective, n_trials=N_TRIALS)
    else:
        for _ in range(N_TRIALS):
            objective(None)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()


def objective_with(single_trial, scale):
    number = torch.zeros(1)
    if single_trial is not None:
        number[0] = single_trial.number * scale
    dist.broadcast(number, src=0)
    return float(number.item())


def main_partial():
    # The objective bound to its configuration with functools.partial, as
    # GraphStorm's tuning script does.
    from functools import partial

    dist.init_process_group("gloo")
    trainable = partial(objective_with, scale=2)
    if dist.get_rank() == 0:
        study = optuna.create_study()
        study.optimize(trainable, n_trials=N_TRIALS)
    else:
        for _ in range(N_TRIALS):
            trainable(None)
    dist.destroy_process_group()
