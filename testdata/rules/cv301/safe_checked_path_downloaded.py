# A model path replaced by a download where the host lacks it: every
# rank then loads the same model, whichever way it got there.
import os

import torch
import torch.distributed as dist
from huggingface_hub import snapshot_download


def main(args, x):
    if not os.path.exists(args.model_name_or_path):
        args.model_name_or_path = snapshot_download(repo_id=args.model_name_or_path)
    model = torch.load(os.path.join(args.model_name_or_path, "model.pt"))
    ema = None
    if args.use_ema:
        ema = model
    if ema is not None:
        dist.all_reduce(x)
