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
