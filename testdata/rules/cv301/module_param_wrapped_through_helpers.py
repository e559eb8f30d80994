# The wrapper reaches the forward two helper levels down: a rank whose
# host lacks the task's checkpoint leaves, the others run the wrapper's
# forward, which broadcasts DDP's buffers.
import os

import torch
import torch.distributed as dist


def evaluate(model, loader):
    for x, y in loader:
        model(x)


def evaluate_till_now(model, loaders, task_id):
    for i in range(task_id + 1):
        evaluate(model, loaders[i])


def main(args, loaders):
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8)).cuda()
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.gpu])
    for task_id in range(args.num_tasks):
        if not os.path.exists(os.path.join(args.output_dir, f"task{task_id}.pth")):
            return
        evaluate_till_now(model, loaders, task_id)  # want CV301 "forward .* runs only on the ranks that do not leave early .*file system check"
