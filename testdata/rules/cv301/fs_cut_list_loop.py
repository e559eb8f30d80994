# A resume that drops the inputs this host's output file already holds
# (Star-Attention's inference runner): hosts that see different files
# loop over different numbers of inputs, each pass a collective.
import json
import os

import torch
import torch.distributed as dist


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def resume_point(inputs, output_file):
    done = read_jsonl(output_file)
    return inputs[len(done):]


def run(inputs, output_file):
    dist.init_process_group("nccl")
    if os.path.exists(output_file):
        inputs = resume_point(inputs, output_file)
    for sample in inputs:
        t = torch.ones(1, device="cuda")
        dist.all_reduce(t)  # want CV301 "once per element of `inputs`, whose bounds depend on a file system check"


def run_sliced(items, output_file):
    dist.init_process_group("nccl")
    if os.path.exists(output_file):
        items = [x for x in items if x not in read_jsonl(output_file)]
    for i, x in enumerate(items):
        dist.barrier()  # want CV301 "whose bounds depend on a file system check"
