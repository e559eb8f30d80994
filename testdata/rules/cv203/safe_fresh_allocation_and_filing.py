# TransformerEngine's CPU offload: torch.empty_like allocates on the
# current stream and writes nothing, so filling it on the offload stream
# waits for nothing; appending a tensor to a list hands it on; and a list
# of work handles is host data, whatever stream filed them.
import torch
import torch.distributed as dist


class Offloader:
    def __init__(self):
        self.offload_stream = torch.cuda.Stream()

    def reload(self, cpu_tensors):
        out = []
        for t in cpu_tensors:
            gpu = torch.empty_like(t, device=torch.device("cuda"))
            with torch.cuda.stream(self.offload_stream):
                gpu.copy_(t, non_blocking=True)
            out.append(gpu)
        return out

    def reduce(self, chunks, rs_streams, ar_streams, groups):
        works = [None] * len(chunks)
        for i, c in enumerate(chunks):
            rs_streams[i].wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(rs_streams[i]):
                works[i] = dist.reduce_scatter_tensor(c, c, group=groups[0], async_op=True)
        for i, c in enumerate(chunks):
            with torch.cuda.stream(ar_streams[i]):
                works[i].wait()
                works[i] = dist.all_reduce(c, group=groups[1], async_op=True)
        return works

    def track(self, block, works):
        # A list of work handles filed on the instance and waited on a
        # side stream: wait() on a handle reads no tensor.
        self.reductions[block] = works
        with torch.cuda.stream(self.offload_stream):
            self.reductions[block][0].wait()
