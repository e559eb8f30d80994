import torch
from accelerate import Accelerator


def evaluate(model, loader, metric):
    accelerator = Accelerator()
    model, loader = accelerator.prepare(model, loader)
    model.eval()
    for batch in loader:
        with torch.no_grad():
            logits = model(**batch).logits
        preds = logits.argmax(dim=-1)
        if accelerator.is_main_process:
            preds, refs = accelerator.gather_for_metrics((preds, batch["labels"]))
            metric.add_batch(predictions=preds, references=refs)
    if accelerator.is_main_process:
        print(metric.compute())
