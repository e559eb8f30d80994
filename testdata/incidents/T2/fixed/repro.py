import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


class Checkpointer:
    def __init__(self):
        self._future = None
        self._barrier_pg = dist.new_group(backend="gloo")

    def save(self, state, path):
        if self._future is not None:
            self._future.result()
        self._future = dcp.async_save(state, checkpoint_id=path)
        dist.barrier(group=self._barrier_pg)


def train(model, opt, loader, ckpt_dir):
    ckpt = Checkpointer()
    for step, batch in enumerate(loader):
        loss = model(batch).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 100 == 0:
            ckpt.save({"model": model.state_dict(), "optim": opt.state_dict()}, f"{ckpt_dir}/step_{step}")


def main():
    dist.init_process_group("nccl")
    model = torch.nn.Linear(1024, 1024).cuda()
    opt = torch.optim.AdamW(model.parameters())
    loader = [torch.randn(8, 1024, device="cuda") for _ in range(1000)]
    train(model, opt, loader, "/checkpoints")


if __name__ == "__main__":
    main()
