# A Hugging Face Trainer subclass that saves its periodic checkpoint from
# the main process only: _save_checkpoint gathers the state dict under
# ZeRO-3 and FSDP, so the other ranks never join the gather.
from transformers import Trainer


class MainOnlySaveTrainer(Trainer):
    def _maybe_log_save_evaluate(self, tr_loss, grad_norm, model, trial, epoch, ignore_keys_for_eval, start_time):
        if self.control.should_save and self.is_world_process_zero():
            self._save_checkpoint(model, trial)  # want CV301 "is_world_process_zero"
            self.control = self.callback_handler.on_save(self.args, self.state, self.control)
