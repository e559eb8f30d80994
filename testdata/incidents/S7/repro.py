import torch
import torch.distributed as dist


class DistributedDataParallel(torch.nn.Module):
    def __init__(self, module, dp_group):
        super().__init__()
        self.module = module
        self.dp_group = dp_group
        self.comm_stream = torch.cuda.Stream()
        self.side = torch.cuda.Stream()
        self.grad_accs = []
        self.pending = []
        with torch.cuda.stream(self.side):
            for p in module.parameters():
                p.main_grad = torch.zeros_like(p, dtype=torch.float32)
                acc = p.expand_as(p).grad_fn.next_functions[0][0]
                acc.register_hook(self._make_grad_ready_hook(p))
                self.grad_accs.append(acc)

    def _make_grad_ready_hook(self, p):
        def hook(*unused):
            p.main_grad.add_(p.grad)
            p.main_grad.mul_(1.0 / dist.get_world_size(self.dp_group))
            p.grad = None
            with torch.cuda.stream(self.comm_stream):
                shard = torch.empty(p.main_grad.numel() // dist.get_world_size(self.dp_group), device="cuda")
                w = dist.reduce_scatter_tensor(shard, p.main_grad.view(-1), group=self.dp_group, async_op=True)
                self.pending.append((w, shard))
        return hook

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def finish_grad_sync(self):
        for w, _ in self.pending:
            w.wait()
        self.pending.clear()
