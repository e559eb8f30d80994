# Shapes that must stay silent: the NaN test is agreed on every rank first,
# the model does not synchronise gradients, the backward runs under
# no_sync, the test is on a value every rank shares, or the rank raises.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def agreed(net, loader, opt, crit):
    model = DDP(net)
    for x, y in loader:
        loss = crit(model(x), y)
        found = torch.isnan(loss).float()
        dist.all_reduce(found)
        if found.item() > 0:
            continue
        loss.backward()
        opt.step()


def agreed_loss(net, loader, opt):
    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        dist.all_reduce(loss)
        if torch.isnan(loss):
            continue
        opt.step()


def local_model(net, loader, opt):
    # No DDP: backward() communicates nothing.
    for x in loader:
        loss = net(x).sum()
        if torch.isnan(loss):
            continue
        loss.backward()
        opt.step()


def accumulate(net, loader, opt):
    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        if torch.isnan(loss):
            continue
        with model.no_sync():
            loss.backward()


def grad_norm_check(net, loader, opt):
    # After DDP's backward every rank holds the same gradients: a test of
    # their norm is the same everywhere, and step() is local.
    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if not torch.isfinite(norm):
            opt.zero_grad()
            continue
        opt.step()


def fail_fast(net, loader, opt):
    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        if torch.isnan(loss):
            raise FloatingPointError("loss is NaN")
        loss.backward()
        opt.step()


def per_task(net, batches, tasks, opt):
    # One backward per task, in the set's order: each reduces the whole
    # model's gradients in the same buckets, whatever the order.
    model = DDP(net)
    for name in set(tasks):
        loss = model(batches[name]).sum()
        loss.backward()
    opt.step()


def accelerate_gathered(net, opt, loader):
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, opt, loader = accelerator.prepare(net, opt, loader)
    for x in loader:
        loss = model(x).sum()
        if accelerator.gather(torch.isnan(loss)).any():
            continue
        accelerator.backward(loss)
        opt.step()


def stop_on_nan(net, loader, opt):
    # MAE and DINO stop the process on a non-finite loss: a failed worker,
    # which torchrun answers by stopping the others.
    import math
    import sys

    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        if not math.isfinite(loss.item()):
            print("Loss is not finite, stopping training")
            sys.exit(1)
        loss.backward()
        opt.step()


def any_of_reduced(net, loader, opt, crit):
    # The losses are all-reduced before the test: every rank agrees.
    model = DDP(net)
    for x, y in loader:
        g_loss = crit(model(x), y)
        d_loss = g_loss * 2
        dist.all_reduce(g_loss)
        dist.all_reduce(d_loss)
        if any(torch.isnan(v) for v in (g_loss, d_loss)):
            continue
        (g_loss + d_loss).backward()
        opt.step()


def reduced_on_one_arm(net, loader, opt, average):
    # Both arms agree the loss before the test.
    model = DDP(net)
    for x in loader:
        loss = model(x).sum()
        if average:
            dist.all_reduce(loss, op=dist.ReduceOp.AVG)
        else:
            dist.all_reduce(loss)
        if torch.isnan(loss):
            continue
        loss.backward()
        opt.step()
