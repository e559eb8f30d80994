# An unrelated script of the same tree, started on its own: a gloo job.
# Its backend says nothing about the engine's default group.
import torch.distributed as dist

if __name__ == "__main__":
    dist.init_process_group(backend="gloo")
