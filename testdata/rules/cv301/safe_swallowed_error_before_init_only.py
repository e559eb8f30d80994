# The script's main parses its arguments and builds the process group,
# and nothing communicates after it: a rank that fails there fails before
# or at the rendezvous, not in a collective the others wait in.
import argparse
import logging

import torch.distributed as dist

logger = logging.getLogger()
parser = argparse.ArgumentParser()


def main():
    args = parser.parse_args()
    dist.init_process_group("gloo")
    print(args)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        logger.exception(e)
