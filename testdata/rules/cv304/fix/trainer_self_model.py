import transformers


class MyTrainer(transformers.Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        outputs = self.model(**inputs)
        return outputs.loss
