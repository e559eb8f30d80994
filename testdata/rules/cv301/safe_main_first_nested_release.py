# Main process first, with the release nested in the leader's own work
# block: `local_rank == 0` inside `local_rank in [-1, 0]` holds on every
# rank that gets there, so each rank of the job passes one barrier
# (llama-pipeline-parallel's save).
import os

import torch
import torch.distributed as dist


def save_model(model, cfg, output_dir):
    torch.save(model.state_dict(), os.path.join(output_dir, f"model_{dist.get_rank()}.pt"))

    if cfg.local_rank not in [-1, 0]:
        dist.barrier()

    if cfg.local_rank in [-1, 0]:
        with open(os.path.join(output_dir, "done.txt"), "w") as f:
            f.write("ok")

        if cfg.local_rank == 0:
            dist.barrier()


class Cfg:
    local_rank = int(os.environ.get("LOCAL_RANK", -1))


def main():
    cfg = Cfg()
    if cfg.local_rank != -1:
        torch.cuda.set_device(cfg.local_rank)
        dist.init_process_group("nccl")
    model = torch.nn.Linear(4, 4)
    for step in range(10):
        save_model(model, cfg, "out")
