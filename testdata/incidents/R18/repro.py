import torch.distributed as dist


def init_tensor_parallel(tp_size):
    rank = dist.get_rank()
    world = dist.get_world_size()
    start = (rank // tp_size) * tp_size
    tp_ranks = list(range(start, start + tp_size))
    tp_group = dist.new_group(tp_ranks)
    return tp_group


def main():
    dist.init_process_group("gloo")
    tp_group = init_tensor_parallel(4)
    dist.barrier(group=tp_group)


if __name__ == "__main__":
    main()
