# An uncalled method that the trainer thread's unresolved call names
# (self.policy.update_popart(): the policy comes from a registry) runs on
# that thread, while the main thread issues its own all_reduce.
import threading

import torch
import torch.distributed as dist


class RunningMeanStd:
    def update(self, x):
        dist.all_reduce(x)  # want CV101 "thread started at"


class ActorCriticPolicy:
    def __init__(self):
        self.rms = RunningMeanStd()

    def update_popart(self, x):
        self.rms.update(x)


class TrainerThread:
    def __init__(self, policy):
        self.policy = policy
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while True:
            self.policy.update_popart(torch.ones(1, device="cuda"))


def main(policy):
    dist.init_process_group("nccl")
    TrainerThread(policy).thread.start()
    while True:
        dist.all_reduce(torch.ones(1, device="cuda"))


if __name__ == "__main__":
    main(None)
