# The group and the device binding each under a test of the configured
# device, with a collective between them (MatterSim's fine-tuning script):
# on CUDA the collective runs before the rank's device is bound.
import os

import torch
import torch.distributed

local_rank = int(os.environ["LOCAL_RANK"])


def main(args):
    if args.device == "cuda":
        torch.distributed.init_process_group(backend="nccl")  # want CV403 "created on \"nccl\" without device_id, and the device is bound only at"
    else:
        torch.distributed.init_process_group(backend="gloo")
    torch.distributed.broadcast_object_list([None], src=0)
    if args.device == "cuda":
        torch.cuda.set_device(local_rank)
