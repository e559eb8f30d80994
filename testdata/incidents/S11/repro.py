import torch
import torch.distributed as dist


def chunked_loss_backward(model, hidden, labels, n_chunks, rs_stream, shard_pg, grad_accum):
    world = dist.get_world_size(shard_pg)
    for h, y in zip(hidden.chunk(n_chunks), labels.chunk(n_chunks)):
        logits = model.lm_head(h)
        loss = torch.nn.functional.cross_entropy(logits, y)
        loss.backward(retain_graph=True)
        flat = model.lm_head.weight.grad.view(-1)
        rs_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(rs_stream):
            out = torch.empty(flat.numel() // world, device="cuda")
            dist.reduce_scatter_tensor(out, flat, group=shard_pg)
            grad_accum.add_(out)
            post_reduce_event = rs_stream.record_event()
        model.lm_head.weight.grad = None
    return grad_accum
