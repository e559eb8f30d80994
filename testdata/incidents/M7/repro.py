import torch
import torch.distributed as dist
from megatron.core import parallel_state


class ExpertLayer(torch.nn.Module):
    def __init__(self, hidden, num_local_experts):
        super().__init__()
        self.experts = torch.nn.ModuleList(torch.nn.Linear(hidden, hidden) for _ in range(num_local_experts))
        self.ep_group = parallel_state.get_expert_model_parallel_group()

    def forward(self, tokens):
        dispatched = torch.empty_like(tokens)
        dist.all_to_all_single(dispatched, tokens, group=self.ep_group)
        out = sum(e(dispatched) for e in self.experts)
        combined = torch.empty_like(out)
        dist.all_to_all_single(combined, out, group=self.ep_group)
        return combined


class OverlappingDDP(torch.nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module
        self.dp_group = parallel_state.get_data_parallel_group()
        self.handles = []
        for p in module.parameters():
            acc = p.expand_as(p).grad_fn.next_functions[0][0]
            acc.register_hook(self._make_hook(p))

    def _make_hook(self, p):
        def hook(*unused):
            shard = torch.empty(p.grad.numel() // dist.get_world_size(self.dp_group), device=p.grad.device)
            h = dist.reduce_scatter_tensor(shard, p.grad.view(-1), group=self.dp_group, async_op=True)
            self.handles.append(h)
        return hook

    def forward(self, x):
        return self.module(x)

    def finish_grad_sync(self):
        for h in self.handles:
            h.wait()
        self.handles.clear()


def main():
    dist.init_process_group("nccl")
    parallel_state.initialize_model_parallel(expert_model_parallel_size=4)
    model = OverlappingDDP(ExpertLayer(1024, 2).cuda())
    opt = torch.optim.AdamW(model.parameters())
    for step in range(10000):
        x = torch.randn(64, 1024, device="cuda")
        loss = model(x).sum()
        loss.backward()
        model.finish_grad_sync()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
