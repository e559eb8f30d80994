# main_process_first() on every rank, whatever each host holds: the
# barrier pairs up (transformers' example scripts).
from accelerate import Accelerator
from datasets import load_dataset


def main(args):
    acc = Accelerator()
    raw = load_dataset("wikitext", "wikitext-2-raw-v1", split="train")
    with acc.main_process_first():
        ds = raw.map(lambda e: {"n": len(e["text"])}, load_from_cache_file=not args.overwrite_cache)
    if args.do_eval:
        with acc.main_process_first():
            ev = raw.map(lambda e: {"n": len(e["text"])})
        return ds, ev
    return ds, None
