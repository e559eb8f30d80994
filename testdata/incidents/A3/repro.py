import torch
from accelerate import Accelerator
from accelerate.utils import DeepSpeedPlugin
from transformers import AutoModelForCausalLM


def main():
    plugin = DeepSpeedPlugin(zero_stage=3, gradient_accumulation_steps=1)
    accelerator = Accelerator(deepspeed_plugin=plugin, mixed_precision="bf16")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
    loader = torch.utils.data.DataLoader(load_dataset(), batch_size=8)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for batch in loader:
        out = model(**batch)
        accelerator.backward(out.loss)
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
