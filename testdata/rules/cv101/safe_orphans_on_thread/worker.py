# Every collective runs on the one trainer thread: the concrete trainer's
# step is called only through the abstract Trainer.step, the policy's
# update_popart only through an unresolved call on a registry's policy,
# and the finalizer where the trainer lives. None of them runs on main.
import threading

import torch
import torch.distributed as dist


class Trainer:
    def step(self, batch):
        raise NotImplementedError()


class PPOTrainer(Trainer):
    def step(self, batch):
        dist.all_reduce(batch)

    def __del__(self):
        if dist.is_initialized():
            dist.destroy_process_group()


class RunningMeanStd:
    def update(self, x):
        dist.all_reduce(x)


class ActorCriticPolicy:
    def __init__(self):
        self.rms = RunningMeanStd()

    def update_popart(self, x):
        self.rms.update(x)


class TrainerThread:
    def __init__(self, trainer: Trainer, policy):
        self.trainer = trainer
        self.policy = policy
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        dist.init_process_group("nccl")
        while True:
            batch = torch.ones(1, device="cuda")
            dist.all_reduce(batch)
            self.trainer.step(batch)
            self.policy.update_popart(batch)


def main(trainer, policy):
    TrainerThread(trainer, policy).thread.start()


if __name__ == "__main__":
    main(None, None)
