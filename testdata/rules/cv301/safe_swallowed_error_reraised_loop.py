# The worker's loop re-raises what it logs: the failed rank dies and the
# launcher stops the others.
import torch.distributed as dist


def generate(items):
    return [str(x) for x in items]


def worker_loop():
    while True:
        try:
            data = [None]
            dist.broadcast_object_list(data, src=0)
            outputs = generate(data[0])
            gathered = [None] * dist.get_world_size()
            dist.all_gather_object(gathered, outputs)
        except Exception as e:
            print(f"threw exception: {e}")
            raise
