# A load whose path result is not tested, or whose absence every rank
# agrees on first, gives no rank its own way.
import deepspeed
import torch
import torch.distributed as dist


def load(engine, load_dir):
    _, state_dict = engine.load_checkpoint(load_dir)
    dist.barrier()
    return state_dict


def load_agreed(engine, load_dir):
    path, state_dict = engine.load_checkpoint(load_dir)
    found = torch.tensor([0 if path is None else 1])
    dist.all_reduce(found, op=dist.ReduceOp.MIN)
    if found.item() == 0:
        return 0
    dist.barrier()
    return state_dict["iteration"]


def main(args, net):
    deepspeed.init_distributed()
    engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    load(engine, args.load)
    load_agreed(engine, args.load)
