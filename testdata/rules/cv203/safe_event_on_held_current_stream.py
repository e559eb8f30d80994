# The constructor keeps torch.cuda.current_stream() in an attribute; an
# event recorded on it orders the write made outside any stream context
# (the polkadot FSDP layer's reduce-scatter).
import torch
import torch.distributed as dist


class Layer:
    def __init__(self, params, shard):
        self.compute_stream = torch.cuda.current_stream()
        self.comm_stream = torch.cuda.Stream()
        self.params = params
        self.shard = shard

    def reduce_gradients(self):
        full_grad = torch.cat([p.grad.reshape(-1) for p in self.params])
        evt = torch.cuda.Event()
        evt.record(self.compute_stream)
        self.comm_stream.wait_event(evt)
        with torch.cuda.stream(self.comm_stream):
            dist.reduce_scatter_tensor(self.shard, full_grad)
