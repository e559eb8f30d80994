# A method of a model that ZeRO-3 partitions, other than forward, that
# runs the model's submodules (starVLA's `predict_action` on the main
# process): DeepSpeed's hooks on each submodule all-gather its
# parameters, on the ranks that call it only.
import deepspeed
import torch
import torch.distributed as dist
from accelerate import Accelerator, DeepSpeedPlugin


class Policy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(32, 7)

    def forward(self, x):
        return self.net(x)

    def predict_action(self, x):
        return self.net(x).argmax(-1)

    def describe(self):
        return "policy with %d outputs" % 7


def train_deepspeed():
    model = Policy()
    engine, _, _, _ = deepspeed.initialize(model=model, config={"zero_optimization": {"stage": 3}})
    for _ in range(10):
        engine.backward(engine(torch.randn(4, 32)).sum())
        engine.step()
        if dist.get_rank() == 0:
            model.predict_action(torch.randn(4, 32))  # want CV301 "get_rank\(\) == 0"
            print(model.describe())  # runs no submodule: nothing to gather
        dist.barrier()


def train_accelerate():
    accelerator = Accelerator(deepspeed_plugin=DeepSpeedPlugin(zero_stage=3))
    model = Policy()
    model, opt = accelerator.prepare(model, torch.optim.AdamW(model.parameters()))
    for _ in range(10):
        accelerator.backward(model(torch.randn(4, 32)).sum())
        opt.step()
        if accelerator.is_main_process:
            model.predict_action(torch.randn(4, 32))  # want CV301 "is_main_process"
        accelerator.wait_for_everyone()


def train_zero2():
    # ZeRO-2 keeps every parameter whole on every rank.
    model = Policy()
    engine, _, _, _ = deepspeed.initialize(model=model, config={"zero_optimization": {"stage": 2}})
    for _ in range(10):
        engine.backward(engine(torch.randn(4, 32)).sum())
        engine.step()
        if dist.get_rank() == 0:
            model.predict_action(torch.randn(4, 32))
        dist.barrier()
