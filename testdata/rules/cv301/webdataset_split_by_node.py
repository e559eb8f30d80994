# A WebDataset split between nodes gives each rank the samples of its own
# shards: a loop over it whose passes communicate runs a different number
# of times on each rank (vqgan-training's trainer). A fixed epoch length
# (.with_epoch(n)) or resampled shards make every rank's count the same.
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
