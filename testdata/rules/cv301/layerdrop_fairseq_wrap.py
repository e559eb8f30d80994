# fairseq's own shape (fairseq#3875): layers wrapped one by one with
# fairscale's wrap() inside enable_wrap, through fairseq's fsdp_wrap
# helper, kept in a LayerDropModuleList, and run from a helper of the
# encoder's forward. Each layer's forward all-gathers its parameters; a
# rank whose draw drops a layer skips that all-gather.
import torch
import torch.distributed as dist
import torch.nn as nn
from fairscale.nn import enable_wrap
from fairscale.nn.data_parallel import FullyShardedDataParallel as FSDP


class LayerDropModuleList(nn.ModuleList):
    def __init__(self, p, modules=None):
        super().__init__(modules)
        self.p = p

    def __iter__(self):
        dropout_probs = torch.empty(len(self)).uniform_()
        for i, m in enumerate(super().__iter__()):
            if not self.training or (dropout_probs[i] > self.p):
                yield m


def fsdp_wrap(module, min_num_params=None, **kwargs):
    def wrap(module, **kwargs):
        try:
            from fairscale.nn import wrap as fairscale_fsdp_wrap

            return fairscale_fsdp_wrap(module, **kwargs)
        except ImportError:
            return module

    if min_num_params is not None:
        num_params = sum(p.numel() for p in module.parameters())
        if num_params >= min_num_params:
            return wrap(module, **kwargs)
        return module
    return wrap(module, **kwargs)


class EncoderLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x, encoder_padding_mask=None):
        return self.fc(x)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        if cfg.layerdrop > 0.0:
            self.layers = LayerDropModuleList(p=cfg.layerdrop)
        else:
            self.layers = nn.ModuleList([])
        self.layers.extend([self.build_encoder_layer(cfg) for i in range(cfg.layers)])

    def build_encoder_layer(self, cfg):
        layer = EncoderLayer(cfg.dim)
        return fsdp_wrap(layer, min_num_params=cfg.min_params_to_wrap)

    def forward(self, src_tokens):
        return self.forward_scriptable(src_tokens)

    def forward_scriptable(self, x):
        for layer in self.layers:
            x = layer(x, encoder_padding_mask=None)  # want CV301 "forward .*LayerDropModuleList.__iter__ yields only when"
        return x


def train(cfg, batches):
    dist.init_process_group("nccl")
    with enable_wrap(wrapper_cls=FSDP, process_group=None):
        model = Encoder(cfg)
    model = FSDP(model)
    for batch in batches:
        model(batch).sum().backward()
