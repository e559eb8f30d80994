# A WebDataset split between nodes gives each rank the samples of its own
# shards: a loop over it whose passes communicate runs a different number
# of times on each rank (vqgan-training's trainer). A fixed epoch length
# (.with_epoch(n)) or resampled shards make every rank's count the same.
from functools import partial

import torch
import torch.distributed as dist
import webdataset as wds


def create_dataloader(url, batch_size, shuffle=True):
    dataset = wds.WebDataset(url, nodesplitter=wds.split_by_node, workersplitter=wds.split_by_worker)
    dataset = dataset.shuffle(1000) if shuffle else dataset
    dataset = dataset.decode("rgb").to_tuple("jpg")
    return wds.WebLoader(dataset, batch_size=batch_size, num_workers=4)


def train(url):
    loader = create_dataloader(url, 8)
    for i, (images,) in enumerate(loader):
        value = torch.tensor(images.float().mean().item(), device="cuda")
        dist.all_reduce(value)  # want CV301 "is issued once per element of `enumerate\(loader\)`"


def train_pipeline(urls):
    pipeline = wds.DataPipeline(wds.SimpleShardList(urls), wds.split_by_node, wds.split_by_worker, wds.tarfile_to_samples())
    for sample in pipeline:
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "is issued once per element of `pipeline`"


def train_fixed_epoch(url, n_batches):
    dataset = wds.WebDataset(url, nodesplitter=wds.split_by_node).decode("rgb").to_tuple("jpg")
    loader = wds.WebLoader(dataset, batch_size=8).with_epoch(n_batches)
    for (images,) in loader:
        dist.all_reduce(torch.ones(1, device="cuda"))


def train_resampled(url):
    dataset = wds.WebDataset(url, resampled=True, nodesplitter=wds.split_by_node).with_epoch(1000)
    for sample in dataset:
        dist.all_reduce(torch.ones(1, device="cuda"))


def train_partial_dataset(url):
    # The dataset class bound with its node splitter by functools.partial,
    # and passed over once (t2v-turbo's video loader): repeat(1) fixes
    # nothing.
    dataset_cls = partial(wds.WebDataset, nodesplitter=wds.split_by_node)
    dataset = dataset_cls(url, shardshuffle=100).repeat(1).batched(4)
    loader = wds.WebLoader(dataset, batch_size=None)
    for batch in loader:
        dist.all_reduce(torch.ones(1, device="cuda"))  # want CV301 "is issued once per element of `loader`"


def train_endless_repeat(url, steps):
    # repeat() with no count, or a batch count, fixes the length.
    dataset = wds.WebDataset(url, nodesplitter=wds.split_by_node).repeat()
    for step, batch in zip(range(steps), wds.WebLoader(dataset, batch_size=8)):
        dist.all_reduce(torch.ones(1, device="cuda"))
    counted = wds.WebDataset(url, nodesplitter=wds.split_by_node).repeat(nbatches=steps)
    for batch in wds.WebLoader(counted, batch_size=8):
        dist.all_reduce(torch.ones(1, device="cuda"))
