# A resumed run skips the batches it has seen: the skip count is set under
# a file system check, but the batches the loader then yields are data,
# and every rank's collator builds the same keys. Branching on a key of a
# batch is no file system check.
import os

from accelerate import Accelerator, skip_first_batches

accelerator = Accelerator()


def train(dataloader, resume_dir, track_tokens):
    skip = 0
    if resume_dir is not None and os.path.isfile(os.path.join(resume_dir, "state.json")):
        skip = 5
    epoch_iterator = dataloader
    if skip > 0:
        epoch_iterator = skip_first_batches(dataloader, skip)
    seen = 0
    for step, inputs in enumerate(epoch_iterator):
        if track_tokens:
            if "input_ids" not in inputs:
                print("batch has no input_ids")
            else:
                seen += accelerator.gather(inputs["input_ids"]).numel()
    return seen
