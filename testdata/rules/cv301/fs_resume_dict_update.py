# maskrcnn-benchmark's resume: the checkpointer looks for this host's
# last_checkpoint file, and what it loads is merged into the arguments
# dict, whose "iteration" then bounds the training loop (Scene-Graph-
# Benchmark's relation_train_net).
import os

import torch
import torch.distributed as dist


class Checkpointer:
    def __init__(self, model, save_dir=""):
        self.model = model
        self.save_dir = save_dir

    def has_checkpoint(self):
        return os.path.exists(os.path.join(self.save_dir, "last_checkpoint"))

    def load(self, f):
        checkpoint = torch.load(f, map_location="cpu")
        self.model.load_state_dict(checkpoint.pop("model"))
        return checkpoint


def train(model, dataset, output_dir, max_iter, cfg):
    model = torch.nn.parallel.DistributedDataParallel(model.cuda())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    arguments = {"iteration": 0}
    checkpointer = Checkpointer(model, output_dir)
    if checkpointer.has_checkpoint():
        extra_checkpoint_data = checkpointer.load(os.path.join(output_dir, "model_final.pth"))
        arguments.update(extra_checkpoint_data)
    start_iter = arguments["iteration"]
    for iteration in range(start_iter, max_iter):
        loss = model(dataset[:2].cuda()).sum()  # want CV301 "is issued once per element of `range\(start_iter, max_iter\)`, whose bounds depend on a file system check"
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    settings = {"iteration": 0}
    settings.update({"iteration": cfg.start})
    for iteration in range(settings["iteration"], max_iter):
        loss = model(dataset[:2].cuda()).sum()
        loss.backward()


def main():
    dist.init_process_group("nccl")
    train(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)), torch.randn(64, 4), "out", 100, None)
