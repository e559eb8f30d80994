# The study drives the objective on rank 0 while the other ranks never
# call it: its broadcast runs on rank 0 alone.
import optuna
import torch
import torch.distributed as dist


def objective_alone(trial):
    number = torch.zeros(1)
    dist.broadcast(number, src=0)
    return float(number.item())


def tune():
    dist.init_process_group("gloo")
    if dist.get_rank() == 0:
        study = optuna.create_study()
        study.optimize(objective_alone, n_trials=10)  # want CV301 "broadcast"
    dist.destroy_process_group()
