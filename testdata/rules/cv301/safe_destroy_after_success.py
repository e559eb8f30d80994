# torchtitan's fix: the group is destroyed only once the work returned
# normally; a failing rank raises and exits, and the launcher stops the
# job. A finally clause that only cleans up files, and one around work
# without collectives, are fine too.
import os

import torch
import torch.distributed as dist


def train(model, loader):
    for batch in loader:
        loss = model(batch)
        dist.all_reduce(loss)


def main(model, loader):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    except Exception:
        raise
    else:
        dist.destroy_process_group()


def main_after(model, loader, tmp):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    finally:
        os.remove(tmp)
    dist.destroy_process_group()


def convert(path):
    dist.init_process_group("gloo")
    try:
        torch.save(torch.load(path), path + ".new")
    finally:
        dist.destroy_process_group()


def main_logs_and_raises(model, loader):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    except Exception as e:
        print("training failed:", e)
        raise
    dist.destroy_process_group()


def main_narrow_handler(model, loader, path):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    except FileNotFoundError:
        print("no data at", path)
    dist.destroy_process_group()
