import deepspeed
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    ds_config = {"zero_optimization": {"stage": 3}, "bf16": {"enabled": True}, "train_micro_batch_size_per_gpu": 1}
    engine, _, _, _ = deepspeed.initialize(model=model, config=ds_config)
    engine.module.eval()
    prompts = load_prompts_for_this_rank()
    for prompt in prompts:
        ids = tokenizer(prompt, return_tensors="pt").input_ids.to(engine.device)
        with torch.no_grad():
            out = engine.module.generate(ids, max_new_tokens=256, eos_token_id=tokenizer.eos_token_id, synced_gpus=True)
        print(tokenizer.decode(out[0]))


if __name__ == "__main__":
    main()
