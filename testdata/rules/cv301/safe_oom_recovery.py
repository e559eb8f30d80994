# Out-of-memory handlers that must stay silent: the error is re-raised
# (the launcher stops every rank), recovery happens only in a single
# process, or nothing in the try block communicates.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def reraise(net, loader, opt):
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()
        except torch.cuda.OutOfMemoryError:
            print("out of memory; giving up")
            raise
        opt.step()


def single_process_only(net, loader, opt, world_size):
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()
        except RuntimeError as e:
            if "out of memory" in str(e):
                if world_size > 1:
                    raise
                torch.cuda.empty_cache()
                continue
            raise
        opt.step()


def not_initialized(net, loader, opt):
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()
        except torch.OutOfMemoryError:
            if dist.is_initialized():
                raise
            continue
        opt.step()


def local_generation(generator, prompts):
    # Generation with a local model: nothing collective to skip.
    outputs = []
    for p in prompts:
        try:
            outputs.append(generator(p))
        except torch.cuda.OutOfMemoryError:
            torch.cuda.empty_cache()
            outputs.append(None)
    return outputs


def other_errors(net, loader, opt):
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()
        except ValueError:
            continue


def recover_unless_distributed(net, loader, opt, distributed):
    # SuperWater: per-batch recovery only when not distributed; under DDP
    # the error propagates and torchrun tears every rank down.
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()
        except RuntimeError as e:
            if not distributed and "out of memory" in str(e):
                torch.cuda.empty_cache()
                continue
            raise
        opt.step()


def reraise_when_distributed(net, loader, opt, args):
    model = DDP(net)
    for x in loader:
        try:
            loss = model(x).sum()
            loss.backward()
        except torch.cuda.OutOfMemoryError:
            if args.distributed:
                raise
            torch.cuda.empty_cache()
            continue
        opt.step()


def unwrap(model):
    return model.module


def score(model, ids):
    return model(ids).mean()


def local_eval(net, batches):
    # The helper is handed the module DDP wraps: no gradient all-reduce.
    model = DDP(net)
    for ids in batches:
        try:
            loss = score(unwrap(model), ids)
            loss.backward()
        except torch.cuda.OutOfMemoryError:
            continue
