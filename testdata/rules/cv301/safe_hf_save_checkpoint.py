# The Trainer's own shape: every rank saves; only the side effects are
# gated on the main process inside.
from transformers import Trainer


class EveryRankSaveTrainer(Trainer):
    def _maybe_log_save_evaluate(self, tr_loss, grad_norm, model, trial, epoch, ignore_keys_for_eval, start_time):
        if self.control.should_save:
            self._save_checkpoint(model, trial)
            self.control = self.callback_handler.on_save(self.args, self.state, self.control)
        if self.is_world_process_zero():
            self.log({"loss": tr_loss})
