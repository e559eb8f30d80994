# The resume directory the user gave is only narrowed to its latest
# checkpoint from this host's listing, inside `if resume_from:`: the
# later `if resume_from:` answers as the given value does, on every rank
# (ddpo's resume; which checkpoint is loaded is another matter).
import os

from accelerate import Accelerator


def main(resume_from, config):
    if resume_from:
        resume_from = os.path.normpath(os.path.expanduser(resume_from))
        if "checkpoint_" not in os.path.basename(resume_from):
            checkpoints = [x for x in os.listdir(resume_from) if "checkpoint_" in x]
            if len(checkpoints) == 0:
                raise ValueError(f"No checkpoints found in {resume_from}")
            resume_from = os.path.join(resume_from, sorted(checkpoints)[-1])
    if config.resume_from:
        config.resume_from = os.path.normpath(config.resume_from)
        found = sorted(os.listdir(config.resume_from))
        if found:
            config.resume_from = os.path.join(config.resume_from, found[-1])
    accelerator = Accelerator()
    if resume_from:
        accelerator.load_state(resume_from)
    if config.resume_from:
        accelerator.load_state(config.resume_from)
    accelerator.wait_for_everyone()
