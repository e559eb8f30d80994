# Generation on a ZeRO-3 model without synced_gpus (R16): each token's
# forward all-gathers the partitioned parameters, and each rank stops at
# its own end-of-sequence token.
import deepspeed
import torch


def sample(model, tokenizer, prompts):
    ds_config = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1}
    engine, _, _, _ = deepspeed.initialize(model=model, config=ds_config)
    for prompt in prompts:
        ids = tokenizer(prompt, return_tensors="pt").input_ids
        with torch.no_grad():
            out = engine.module.generate(ids, max_new_tokens=64)  # want CV301 "ZeRO-3"
        print(tokenizer.decode(out[0]))


def sample_inline(model, ids):
    engine, *_ = deepspeed.initialize(model=model, config={"zero_optimization": {"stage": 3, "overlap_comm": True}})
    return model.generate(ids, synced_gpus=False)  # want CV301 "synced_gpus=True"


def evaluate_on_rank0(model, batch):
    engine, _, _, _ = deepspeed.initialize(model=model, config={"zero_optimization": {"stage": 3}})
    if torch.distributed.get_rank() == 0:
        return engine(batch)  # want CV301 "the model's forward"
    return None


def sample_engine_only(model, ids):
    # The engine picked out of initialize's result by index.
    ds_config = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1}
    engine = deepspeed.initialize(model=model, config=ds_config)[0]
    return engine.module.generate(ids, max_new_tokens=100)  # want CV301 "ZeRO-3"
