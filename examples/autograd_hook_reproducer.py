"""A gradient hook runs on the autograd engine's thread, not on yours.

Run with two ranks on one node (torchrun --nproc-per-node=2 autograd_hook_reproducer.py).
The hook prints a native thread id different from the main thread's: the
all_reduce inside it is launched from a second host thread while the main
thread launches its own collectives, which is how the Frontier FSDP
HYBRID_SHARD hang started (ROCm/rccl#1600).

collvet reports CV102 on the all_reduce and offers to insert
torch.autograd.set_multithreading_enabled(False) after init_process_group.
"""
import os
import threading

import torch
import torch.distributed as dist


def report_and_reduce(grad):
    print(f"hook on native thread {threading.get_native_id()}")
    dist.all_reduce(grad)
    return grad


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    print(f"main thread is native thread {threading.get_native_id()}")

    w = torch.randn(1024, device="cuda", requires_grad=True)
    w.register_hook(report_and_reduce)
    for _ in range(10):
        loss = (w * w).sum()
        loss.backward()
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
