# Rank 0 leaves only when the run is not resuming, and the only later
# collective runs only when it is: on the path where rank 0 leaves, no rank
# issues it (main). A barrier every rank issues afterwards is another matter.
import argparse
import os

import torch.distributed as dist


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--resume", default=None)
    p.add_argument("--log_path", default="out.log")
    args = p.parse_args()
    dist.init_process_group(backend="gloo")
    args.rank = dist.get_rank()

    resume_latest = args.resume == "latest"
    if args.rank == 0:
        if os.path.exists(args.log_path) and not resume_latest:
            print("Error. Experiment already exists.")
            return -1

    if resume_latest:
        objects = ["ckpt.pt" if args.rank == 0 else None]
        dist.broadcast_object_list(objects, src=0)
        args.resume = objects[0]
    print(args.resume)


def main_barrier():
    args = argparse.ArgumentParser().parse_args()
    resume_latest = args.resume == "latest"
    if dist.get_rank() == 0:
        if os.path.exists(args.log_path) and not resume_latest:
            return -1
    dist.barrier()  # want CV301 "leave early"


if __name__ == "__main__":
    main()
