# A helper that builds its own Accelerator() (the shared state) and
# issues nothing collective may run on the main process only.
from accelerate import Accelerator


def log_metrics(values):
    accelerator = Accelerator()
    accelerator.print(values)


def main():
    accelerator = Accelerator()
    if accelerator.is_main_process:
        log_metrics([1.0, 2.0])
    accelerator.wait_for_everyone()
