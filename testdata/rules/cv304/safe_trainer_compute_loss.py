# compute_loss calls the model it is handed (the wrapper under torchrun);
# another model of the trainer (a teacher) or self.model's generate for
# logging does not make the loss bypass it.
import torch
import transformers


class MyTrainer(transformers.Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        outputs = model(**inputs)
        with torch.no_grad():
            teacher = self.teacher(**inputs)
        return outputs.loss + (outputs.logits - teacher.logits).pow(2).mean()


class Sampling(transformers.Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        loss = model.forward(**inputs).loss
        self.model.generate(inputs["input_ids"][:1])
        return loss


class NotATrainer:
    def compute_loss(self, model, inputs):
        return self.model(**inputs).loss
