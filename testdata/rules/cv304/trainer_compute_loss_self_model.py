# A transformers Trainer subclass whose compute_loss runs the forward on
# self.model, the module inside the DistributedDataParallel wrapper the
# Trainer hands it as `model` under torchrun (vec2text's Corrector): the
# Trainer's backward on that loss all-reduces nothing.
import torch
import transformers


class MyTrainer(transformers.Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        outputs = self.model(**inputs)  # want CV304 "runs the forward on `self.model` instead of the `model` it is handed"
        return outputs.loss


class UnwrapTrainer(transformers.Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        return model.module(inputs["x"]).sum()  # want CV304 "on `model.module` instead"
