# vLLM's EPLB transfer: the op list grows with `+=` of a comprehension,
# a Python list, not device memory written on the current stream; the
# tensors in it come from the caller, written nowhere here.
import torch
import torch.distributed as dist


def exchange(weights, buffers, peer, stream):
    p2p_ops = []
    p2p_ops += [dist.P2POp(dist.isend, w, peer) for w in weights]
    p2p_ops += [dist.P2POp(dist.irecv, b, peer) for b in buffers]
    with torch.cuda.stream(stream):
        reqs = dist.batch_isend_irecv(p2p_ops)
        for req in reqs:
            req.wait()
