# A save on the main process only, inside a try whose handler swallows
# errors (MuseTalk's epoch-end save): the rank test is why it hangs on
# every run, and the finding names it.
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    model, opt = accelerator.prepare(object(), object())
    for epoch in range(10):
        try:
            if accelerator.is_main_process:
                accelerator.save_state(f"checkpoint-{epoch}")  # want CV301 "runs only when `accelerator.is_main_process` holds"
        except Exception as e:
            print("Error when saving model:", e)
        accelerator.wait_for_everyone()
