# A file of PyTorch's own tree analysed without the rest of it
# (torch/distributed/checkpoint/examples/async_checkpointing_example.py's
# shape): torch and torch.distributed are directories of the analysed
# tree without __init__.py, and their other names are the installed
# package's. async_save's thread and the main thread's barrier share the
# default group.
import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


def main():
    dist.init_process_group("cpu:gloo,cuda:nccl")
    f = None
    for step in range(100):
        if step % 10 == 0:
            if f is not None:
                f.result()
            f = dcp.async_save({"x": torch.zeros(1)}, checkpoint_id="ckpt")  # want CV101 "async_save runs collectives on the default group"
        dist.barrier()


if __name__ == "__main__":
    main()
