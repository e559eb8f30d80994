# Accelerator() keeps its state in a shared PartialState: a helper that
# builds its own reuses the group the program made first, so reaching
# that helper on some ranks only is not "joining the job" but issuing
# its collectives on some ranks only (RiC's generate_data, entered
# where this host lacks data.csv).
import os

from accelerate import Accelerator


def train_model():
    accelerator = Accelerator()
    accelerator.wait_for_everyone()


def generate_data(save_path):
    accelerator = Accelerator()
    rows = accelerator.gather_for_metrics([1, 2, 3])
    if accelerator.is_main_process:
        with open(os.path.join(save_path, "data.csv"), "w") as f:
            f.write(str(rows))
    accelerator.wait_for_everyone()


def flush_metrics(values):
    accelerator = Accelerator()
    return accelerator.gather_for_metrics(values)


def main():
    accelerator = Accelerator()
    for i in range(3):
        ckpt = f"./logs/model_iter{i}"
        if not os.path.exists(os.path.join(ckpt, "data.csv")):
            generate_data(ckpt)  # want CV301 "file system check"
        train_model()
    if accelerator.is_main_process:
        flush_metrics([1.0, 2.0])  # want CV301 "is_main_process"
    accelerator.wait_for_everyone()
