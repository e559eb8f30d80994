# accelerator.load_state inside `with accelerator.main_process_first():`:
# the main process runs the body while the others wait in the context
# manager's barrier; under FSDP (load_fsdp_model begins with
# wait_for_everyone) and DeepSpeed (the engine's load_checkpoint)
# load_state is collective, so the two sides wait for each other
# (Amphion's trainer resume).
from accelerate import Accelerator


class Trainer:
    def __init__(self, resume, ckpt_dir):
        self.accelerator = Accelerator()
        with self.accelerator.main_process_first():
            if resume:
                self._load_model(ckpt_dir)  # want CV301 "Accelerator.load_state on the default group \(WORLD\) runs inside `with self.accelerator.main_process_first\(\):`"

    def _load_model(self, checkpoint_path):
        self.accelerator.load_state(input_dir=checkpoint_path)
        return checkpoint_path


def main():
    Trainer(True, "ckpt")
