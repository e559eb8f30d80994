# A handler that swallows the error lets the failed rank go on to the
# teardown after the try while the others wait in its collectives
# (timesfm's finetuner: `except KeyboardInterrupt: log`, then the
# cleanup under `if dist.is_initialized()`).
import torch
import torch.distributed as dist


def train(model, loader):
    for batch in loader:
        loss = model(batch)
        dist.all_reduce(loss)


def cleanup():
    dist.destroy_process_group()


def finetune(model, loader):
    try:
        train(model, loader)
    except KeyboardInterrupt:
        print("Training interrupted by user")
    if dist.is_initialized():
        dist.destroy_process_group()  # want CV301 "after the try whose handler"


def main(model, loader):
    dist.init_process_group("nccl")
    try:
        train(model, loader)
    except Exception as e:
        print("training failed:", e)
    cleanup()  # want CV301 "swallows the error"
