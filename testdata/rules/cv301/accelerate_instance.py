# Methods of an Accelerator instance are the table's Accelerator methods,
# whatever their name's generality (gather, reduce): gated on the main
# process, the other processes never join them (R5, R6).
from accelerate import Accelerator

accelerator = Accelerator()


def gather_on_main(preds):
    if accelerator.is_main_process:
        preds = accelerator.gather(preds)  # want CV301 "Accelerator.gather"
    return preds


def reduce_on_first(loss):
    if accelerator.process_index == 0:
        return accelerator.reduce(loss)  # want CV301 "Accelerator.reduce"
    return loss


def save_on_main(path):
    if accelerator.is_main_process:
        accelerator.save_state(path)  # want CV301 "Accelerator.save_state"
