import torch
import torch.distributed as dist


class HSDPParamGroup:
    def __init__(self, params, shard_pg, replicate_pg):
        self.params = params
        self.shard_pg = shard_pg
        self.replicate_pg = replicate_pg
        self.rs_stream = torch.cuda.Stream()
        self.ar_stream = torch.cuda.Stream()
        self.shard_world = dist.get_world_size(shard_pg)
        self._reduce_output_keepalive = None

    def post_backward_reduce(self, flat_grad):
        self.rs_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.rs_stream):
            reduce_output = torch.empty(flat_grad.numel() // self.shard_world, device="cuda")
            dist.reduce_scatter_tensor(reduce_output, flat_grad, group=self.shard_pg)
        self.ar_stream.wait_stream(self.rs_stream)
        with torch.cuda.stream(self.ar_stream):
            dist.all_reduce(reduce_output, group=self.replicate_pg)
            cpu_grad = torch.empty(reduce_output.shape, device="cpu", pin_memory=True)
            cpu_grad.copy_(reduce_output, non_blocking=True)
            post_reduce_event = self.ar_stream.record_event()
        self._reduce_output_keepalive = (reduce_output, post_reduce_event)
        return cpu_grad, post_reduce_event

    def wait_post_reduce(self):
        if self._reduce_output_keepalive is not None:
            _, event = self._reduce_output_keepalive
            torch.cuda.current_stream().wait_event(event)
            self._reduce_output_keepalive = None
