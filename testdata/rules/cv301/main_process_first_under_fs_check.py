# accelerate's main_process_first() is a barrier on every rank (before the
# block on the others, after it on the main process): under a check of
# this host's cache, ranks that find it skip the barrier (outlier-free
# transformers' run_clm).
from pathlib import Path

from accelerate import Accelerator
from datasets import load_dataset, load_from_disk


def main():
    acc = Accelerator()
    cached = Path("/scratch/cache") / "tokenized_512"
    if cached.exists():
        ds = load_from_disk(str(cached))
    else:
        raw = load_dataset("wikitext", "wikitext-2-raw-v1", split="train")
        with acc.main_process_first():  # want CV301 "Accelerator.main_process_first on the default group \(WORLD\) runs only when `not cached.exists\(\)` holds"
            ds = raw.map(lambda e: {"n": len(e["text"])})
    return ds
