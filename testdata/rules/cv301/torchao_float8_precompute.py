# torchao's float8 FSDP2 training all-reduces the float8 weights' amaxes
# in precompute_float8_dynamic_scale_for_fsdp: called on rank 0 only (as
# if it were bookkeeping), the other ranks never join it.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard
from torchao.float8 import convert_to_float8_training, precompute_float8_dynamic_scale_for_fsdp


def step(model, opt, x):
    model(x).sum().backward()
    opt.step()
    if dist.get_rank() == 0:
        precompute_float8_dynamic_scale_for_fsdp(model)  # want CV301 "precompute_float8_dynamic_scale_for_fsdp .* runs only when `dist.get_rank\(\) == 0`"
    dist.barrier()


def step_all(model, opt, x):
    model(x).sum().backward()
    opt.step()
    precompute_float8_dynamic_scale_for_fsdp(model)
    dist.barrier()


def main():
    dist.init_process_group("nccl")
    model = torch.nn.Sequential(torch.nn.Linear(64, 64)).cuda()
    convert_to_float8_training(model)
    fully_shard(model)
    opt = torch.optim.AdamW(model.parameters())
    x = torch.randn(16, 64, device="cuda")
    step(model, opt, x)
    step_all(model, opt, x)
