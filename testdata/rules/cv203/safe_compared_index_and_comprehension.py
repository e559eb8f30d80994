# vLLM's expert rebalancing: an index looked up on the host and compared
# before use, then buffers written under a side stream in a loop whose
# variable a later comprehension reuses for its own elements.
import torch


def move_to_buffer(expert_weights, buffers, plan, dst_rows, cuda_stream, communicator, recv_rows):
    for dst in dst_rows:
        src_local = plan.get(dst, -1)
        if src_local != -1:
            with torch.cuda.stream(cuda_stream):
                for w, b in zip(expert_weights, buffers):
                    b[dst].copy_(w[src_local], non_blocking=True)
    torch.cuda.current_stream().wait_stream(cuda_stream)
    for row in recv_rows:
        communicator.add_recv([b[row] for b in buffers])
