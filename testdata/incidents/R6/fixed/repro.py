import torch
from accelerate import Accelerator
from accelerate.utils import gather_object


def generate_samples(model, tokenizer, prompts):
    accelerator = Accelerator()
    model = accelerator.prepare(model)
    texts = []
    with accelerator.split_between_processes(prompts) as my_prompts:
        for p in my_prompts:
            ids = tokenizer(p, return_tensors="pt").input_ids.to(accelerator.device)
            out = model.generate(ids, max_new_tokens=64)
            texts.append(tokenizer.decode(out[0]))
    all_texts = gather_object(texts)
    if accelerator.is_main_process:
        with open("samples.txt", "w") as f:
            f.write("\n".join(all_texts))
