# With an HfDeepSpeedConfig built before the model is loaded, transformers
# knows of ZeRO-3 and turns synced_gpus on in generate() by itself.
import deepspeed
from transformers import AutoModelForCausalLM
from transformers.integrations import HfDeepSpeedConfig


def sample(name, ids):
    ds_config = {"zero_optimization": {"stage": 3}}
    keep = HfDeepSpeedConfig(ds_config)
    model = AutoModelForCausalLM.from_pretrained(name)
    engine, _, _, _ = deepspeed.initialize(model=model, config=ds_config)
    out = engine.module.generate(ids, max_new_tokens=64)
    return out, keep
