# Under ZeRO-3 save_16bit_model gathers the partitioned parameters: rank
# 0 alone calling it waits for the others; so does a config the analysis
# cannot read.
import deepspeed
import torch.distributed as dist


def save(net, ds_config_path):
    engine, *_ = deepspeed.initialize(model=net, config={"zero_optimization": {"stage": 3}})
    if dist.get_rank() == 0:
        engine.save_16bit_model("out", "best.pt")  # want CV301 "save_16bit_model on .* only when `dist.get_rank\(\) == 0` holds"


def save_from_file(net, ds_config_path):
    engine, *_ = deepspeed.initialize(model=net, config=ds_config_path)
    if dist.get_rank() == 0:
        engine.save_16bit_model("out", "best.pt")  # want CV301 "save_16bit_model on .* only when"
