# Here the name is bound from the listing itself, which may find nothing
# on some hosts: the truth test is this host's answer.
import os

from accelerate import Accelerator


def main(output_dir):
    resume_from = None
    found = sorted(x for x in os.listdir(output_dir) if x.startswith("checkpoint_"))
    if found:
        resume_from = os.path.join(output_dir, found[-1])
    accelerator = Accelerator()
    if resume_from:
        accelerator.load_state(resume_from)  # want CV301 "load_state on .* runs only when `resume_from` holds, which depends on a file system check"
    accelerator.wait_for_everyone()
