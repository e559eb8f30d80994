# An evaluation helper handed the prepared model gathers each batch's
# predictions from every rank (rebinding the names to the gathered
# tensors) and extends its lists with them: the score it returns is every
# rank's, so saving on "the score beat the trigger" runs everywhere
# (llm-detect-ai's run_evaluation).
import torch
from accelerate import Accelerator


def run_evaluation(accelerator, model, valid_dl):
    all_predictions = []
    all_truths = []
    for batch in valid_dl:
        with torch.no_grad():
            outputs = model(**batch)
        predictions = torch.sigmoid(outputs.logits)
        predictions, references = accelerator.gather_for_metrics((predictions, batch["labels"]))
        predictions, references = predictions.cpu().numpy().tolist(), references.cpu().numpy().tolist()
        all_predictions.extend(predictions)
        all_truths.extend(references)
    return {"lb": sum(all_predictions) / len(all_predictions)}


def main(model, optimizer, train_dl, valid_dl, save_trigger):
    accelerator = Accelerator()
    model, optimizer, train_dl, valid_dl = accelerator.prepare(model, optimizer, train_dl, valid_dl)
    best_lb = -1.0
    for batch in train_dl:
        outputs = model(**batch)
        accelerator.backward(outputs.loss)
        optimizer.step()
        scores = run_evaluation(accelerator, model, valid_dl)
        if scores["lb"] >= best_lb:
            best_lb = scores["lb"]
        if best_lb > save_trigger:
            state_dict = accelerator.get_state_dict(model)
            if accelerator.is_main_process:
                torch.save(state_dict, "best.pt")
