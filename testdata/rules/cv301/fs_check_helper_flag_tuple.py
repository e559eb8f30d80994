# A helper answers a file check with a tuple whose flag says which way it
# went (`return path, False` under the check, `return None, True` after
# it); the caller leaves on the flag, on the ranks whose host saw the
# file only (VILA's get_checkpoint_path).
import pathlib

import torch
import torch.distributed as dist


def get_checkpoint_path(output_dir):
    if list(pathlib.Path(output_dir).glob("config.json")):
        return output_dir, False
    return None, True


def main(output_dir):
    resume_path, continue_training = get_checkpoint_path(output_dir)
    if not continue_training:
        exit(0)
    dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "do not leave early .*`not continue_training`"
