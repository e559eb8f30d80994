# A worker's command loop swallows an error in its pass: the failed rank
# goes back to the loop's first broadcast while the others are in the
# pass's gather (llama-inference's worker loop).
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
            dist.all_gather_object(gathered, outputs)  # want CV301 "swallows the error"
        except Exception as e:
            print(f"threw exception: {e}")
