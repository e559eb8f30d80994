# DeepSpeed's load_checkpoint reads the tag from this host's `latest`
# file and returns (None, None) when there is none: a rank on a host
# without it returns early and skips the barrier the others reach
# (savanna's checkpoint loading).
import deepspeed
import torch.distributed as dist


def load(engine, load_dir):
    checkpoint_name, state_dict = engine.load_checkpoint(load_dir)
    if checkpoint_name is None:
        print("Unable to load checkpoint.")
        return 0
    iteration = state_dict.get("iteration")
    dist.barrier()  # want CV301 "file system check"
    return iteration


def main(args, net):
    deepspeed.init_distributed()
    engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    return load(engine, args.load)
