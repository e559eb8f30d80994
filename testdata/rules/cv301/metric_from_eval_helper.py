# A program helper handed the wrapped model returns what its forward
# computed, or something else. A bound crossed by a metric the helper
# gathered from every rank (llm-detect-ai's `best_lb > save_trigger`
# after `accelerator.gather_for_metrics`), or by a constant, is crossed on
# every rank at once; one crossed by the helper's own forward output, or
# by a value decided under a test of it, is this rank's.
import torch
from accelerate import Accelerator


def gathered_score(accelerator, model, loader):
    total = 0.0
    for batch in loader:
        outputs = model(**batch)
        predictions = accelerator.gather(outputs.logits)
        total = predictions.mean().item()
    return total


def constant_score(model, loader):
    for batch in loader:
        model(**batch)
    return 0.5


def local_loss(model, batch):
    out = model(**batch)
    return out.loss.item()


def skipped_steps(model, loader):
    skipped = 0
    for batch in loader:
        loss = model(**batch).loss
        if torch.isnan(loss):
            skipped += 1
    return skipped


def train(model, optimizer, train_dl, valid_dl, save_trigger):
    accelerator = Accelerator()
    model, optimizer, train_dl, valid_dl = accelerator.prepare(model, optimizer, train_dl, valid_dl)
    for batch in train_dl:
        outputs = model(**batch)
        accelerator.backward(outputs.loss)
        optimizer.step()
        score = gathered_score(accelerator, model, valid_dl)
        if score > save_trigger:
            state = accelerator.get_state_dict(model)
        if constant_score(model, valid_dl) > save_trigger:
            state = accelerator.get_state_dict(model)
        if local_loss(model, batch) > save_trigger:
            state = accelerator.get_state_dict(model)  # want CV301 "computed from each rank's own batch"
        if skipped_steps(model, valid_dl) > 3:
            state = accelerator.get_state_dict(model)  # want CV301 "computed from each rank's own batch"
