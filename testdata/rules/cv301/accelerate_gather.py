# R5 (huggingface/accelerate#2785)
def evaluate(accelerator, model, batch):
    preds = model(batch)
    if accelerator.is_main_process:
        preds = accelerator.gather_for_metrics(preds)  # want CV301 "gather_for_metrics"
    return preds
