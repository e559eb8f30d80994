# Every rank calls the function once per request; rank 0 leaving early on
# a bad request skips the broadcast the others wait in.
import torch.distributed as dist


def serve(request=None):
    rank = dist.get_rank()
    if rank == 0:
        if request is None or request.get("path") is None:
            return {"err": "invalid input"}
        params = [request["path"]]
    else:
        params = [None]
    dist.broadcast_object_list(params, src=0)  # want CV301 "leave early"
    return params[0]


def main(requests):
    dist.init_process_group("nccl")
    for r in requests:
        serve(r if dist.get_rank() == 0 else None)
