# A linear probe: DDP around an nn.Linear, which registers no buffer, so
# the forward that validation runs on one rank per node has nothing to
# broadcast (PyContrast's linear evaluation).
import torch
import torch.distributed as dist
import torch.nn as nn


def validate(loader, classifier):
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            out = classifier(x)
            correct += (out.argmax(1) == y).sum().item()
    return correct


def main_worker(gpu, ngpus_per_node, loader, val_loader):
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:23456", world_size=ngpus_per_node, rank=gpu)
    torch.cuda.set_device(gpu)
    classifier = nn.Linear(2048, 1000).cuda(gpu)
    classifier = nn.parallel.DistributedDataParallel(classifier, device_ids=[gpu])
    optimizer = torch.optim.SGD(classifier.parameters(), lr=0.1)
    for epoch in range(10):
        for x, y in loader:
            loss = nn.functional.cross_entropy(classifier(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if gpu % ngpus_per_node == 0:
            validate(val_loader, classifier)
