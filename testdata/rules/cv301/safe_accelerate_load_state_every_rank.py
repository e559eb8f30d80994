# Every rank loads the state; only the download of the checkpoint is the
# main process's first.
from accelerate import Accelerator


def fetch(path):
    return path


def resume(path):
    accelerator = Accelerator()
    with accelerator.main_process_first():
        local = fetch(path)
    accelerator.load_state(local)
    accelerator.wait_for_everyone()
