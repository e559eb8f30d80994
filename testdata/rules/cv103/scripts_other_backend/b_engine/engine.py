# A listener thread barriers on the NCCL default group while the main
# thread sends on a pipeline group (Oobleck's engine). A gloo script
# elsewhere in the tree, whose path sorts first, must not make the
# default group gloo for this program.
import threading

import torch
import torch.distributed as dist


class Engine:
    def __init__(self):
        dist.init_process_group(backend="nccl")
        self.pp_group = dist.new_group([0, 1])
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self):
        while True:
            dist.barrier()  # want CV103 "barrier on the default group \(WORLD\) is issued from a thread"

    def train(self):
        x = torch.zeros(4, device="cuda")
        for _ in range(10):
            dist.send(x, dst=1 - dist.get_rank(), group=self.pp_group)


if __name__ == "__main__":
    Engine().train()
