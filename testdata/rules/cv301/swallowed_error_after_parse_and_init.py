# The script's main parses its arguments, builds the Accelerator (the
# process group), then writes a file on the main process before a
# barrier; the handler around main logs any error and lets the process
# end with status 0: rank 0's failed write leaves the others in the
# barrier (t5-experiments' accelerate pretraining script).
import argparse
import logging

import accelerate
import torch.distributed as dist

logger = logging.getLogger()
parser = argparse.ArgumentParser()


def main():
    args = parser.parse_args()
    accelerator = accelerate.Accelerator()
    if accelerator.is_main_process:
        open("run/config.json", "w").write(str(args))
    dist.barrier()


if __name__ == "__main__":
    try:
        main()  # want CV301 "is skipped on a rank whose work raises before it"
    except Exception as e:
        logger.exception(e)
