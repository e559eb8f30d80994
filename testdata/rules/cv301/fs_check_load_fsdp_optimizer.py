# accelerate's FSDP optimizer load is collective on every rank
# (FSDP.optim_state_dict_to_load, or a distributed checkpoint load):
# gated by a host's own look for the optimizer file, the ranks that do
# not see it skip it (ProLong's trainer).
import os

from accelerate.utils import load_fsdp_optimizer


def resume(accelerator, plugin, model, optimizer, ckpt_dir):
    exists = os.path.isfile(os.path.join(ckpt_dir, "optimizer.bin"))
    if exists:
        load_fsdp_optimizer(plugin, accelerator, optimizer, model, ckpt_dir)  # want CV301 "load_fsdp_optimizer on the default group \(WORLD\) runs only when `exists` holds, which depends on a file system check"


def resume_every_rank(accelerator, plugin, model, optimizer, ckpt_dir):
    # Safe: every rank loads; a missing file fails on every rank alike.
    load_fsdp_optimizer(plugin, accelerator, optimizer, model, ckpt_dir)
