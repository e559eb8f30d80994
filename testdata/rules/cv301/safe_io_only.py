def evaluate(accelerator, model, batch, path):
    preds = accelerator.gather_for_metrics(model(batch))
    if accelerator.is_main_process:
        with open(path, "w") as f:
            f.write(str(preds))
    accelerator.wait_for_everyone()
