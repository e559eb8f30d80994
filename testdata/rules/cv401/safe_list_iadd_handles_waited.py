# `reqs += helper(…)` extends the list in place (list.__iadd__): the
# handles it held and the ones the helper returns are all waited below
# (LLM-PQ's command broadcast).
import torch
import torch.distributed as dist


def send_many(tensor, dst, tag):
    shape = torch.tensor(tensor.shape, dtype=torch.int)
    return [dist.isend(shape, dst=dst, tag=tag), dist.isend(tensor, dst=dst, tag=tag + 1)]


def cmd_broadcast(cmd, tensors, rank, world):
    tensor_cmd = torch.tensor([cmd, len(tensors)], dtype=torch.int)
    reqs = []
    for dst in range(world):
        if dst != rank:
            reqs.append(dist.isend(tensor_cmd, dst=dst, tag=0))
            for t in tensors:
                reqs += send_many(t, dst, 10)
    for req in reqs:
        req.wait()


def main():
    dist.init_process_group("gloo")
    cmd_broadcast(1, (torch.ones(3),), dist.get_rank(), dist.get_world_size())


if __name__ == "__main__":
    main()
