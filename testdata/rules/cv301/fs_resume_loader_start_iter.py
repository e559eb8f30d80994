# maskrcnn-benchmark's training entry: the checkpointer's load goes
# through a file helper of its own, the loaded iteration lands in the
# arguments dict, and the loader is built to start there (an
# IterationBasedBatchSampler yields the batches after start_iter): a host
# that found no checkpoint runs every iteration, the others the rest.
import os

import torch
import torch.distributed as dist


class ResumeCheckpointer:
    def __init__(self, model, save_dir):
        self.model = model
        self.save_dir = save_dir

    def has_checkpoint(self):
        return os.path.exists(os.path.join(self.save_dir, "last_checkpoint"))

    def _load_file(self, f):
        return torch.load(f, map_location="cpu")

    def load(self, f):
        checkpoint = self._load_file(f)
        self.model.load_state_dict(checkpoint.pop("model"))
        return checkpoint


def make_data_loader(dataset, max_iter, start_iter=0):
    sampler = torch.utils.data.distributed.DistributedSampler(dataset)
    return torch.utils.data.DataLoader(dataset, sampler=sampler)


def do_train(model, dataset, output_dir, max_iter):
    model = torch.nn.parallel.DistributedDataParallel(model.cuda())
    arguments = {"iteration": 0}
    checkpointer = ResumeCheckpointer(model, output_dir)
    if checkpointer.has_checkpoint():
        arguments.update(checkpointer.load(os.path.join(output_dir, "model_final.pth")))
    train_data_loader = make_data_loader(dataset, max_iter, start_iter=arguments["iteration"])
    for iteration, batch in enumerate(train_data_loader, arguments["iteration"]):
        loss = model(batch.cuda()).sum()  # want CV301 "is issued once per element of `enumerate\(train_data_loader, arguments\[\"iteration\"\]\)`, whose bounds depend on a file system check"
        loss.backward()
    eval_loader = make_data_loader(dataset, max_iter)
    for batch in eval_loader:
        model(batch.cuda()).sum().backward()


def main():
    dist.init_process_group("nccl")
    do_train(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4)), torch.randn(64, 4), "out", 100)
