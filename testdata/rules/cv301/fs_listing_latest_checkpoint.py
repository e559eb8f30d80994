# VideoMAE's and BEiT-3's auto_load_model: the latest checkpoint is picked
# from this host's directory listing, and DeepSpeed's load_checkpoint
# (collective inside) runs only when one was found.
import glob
import os

import deepspeed


def auto_load_model(output_dir, model):
    latest = -1
    for ckpt in glob.glob(os.path.join(output_dir, "checkpoint-*")):
        t = ckpt.split("-")[-1]
        if t.isdigit():
            latest = max(int(t), latest)
    if latest >= 0:
        model.load_checkpoint(output_dir, tag="checkpoint-%d" % latest)  # want CV301 "a file system check that each rank makes on its own host"


def latest_from_sorted_list(output_dir, model):
    # The listing goes through a variable and sorted(): its elements are
    # still this host's file names.
    ckpts = sorted(glob.glob(os.path.join(output_dir, "checkpoint-*")))
    found = None
    for ckpt in ckpts:
        if ckpt.endswith("-final"):
            found = ckpt
    if found is not None:
        model.load_checkpoint(output_dir, tag=found)  # want CV301 "a file system check that each rank makes on its own host"


def resume_any(output_dir, model):
    if os.listdir(output_dir):
        model.load_checkpoint(output_dir)  # want CV301 "a file system check that each rank makes on its own host"


def main(net):
    deepspeed.init_distributed()
    model, _, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config="ds.json")
    auto_load_model("/local/out", model)
    latest_from_sorted_list("/local/out", model)
    resume_any("/local/out", model)
