# The same resume, with rank 0's cut list broadcast before the loop, and
# a cut list whose loop communicates nothing.
import json
import os

import torch
import torch.distributed as dist


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def run(inputs, output_file):
    dist.init_process_group("nccl")
    if os.path.exists(output_file):
        inputs = inputs[len(read_jsonl(output_file)):]
    box = [inputs]
    dist.broadcast_object_list(box, src=0)
    inputs = box[0]
    for sample in inputs:
        t = torch.ones(1, device="cuda")
        dist.all_reduce(t)


def write_rest(items, output_file):
    if os.path.exists(output_file):
        items = items[len(read_jsonl(output_file)):]
    with open(output_file, "a") as f:
        for x in items:
            f.write(json.dumps(x) + "\n")
    dist.barrier()
