# A checkpoint save retried in a loop whose handler logs a message: where
# the message is bound before the try, the handler swallows the failed
# rank's error and that rank runs the save's collectives again, alone.
# Where it is bound only after the save returns (LF-VILA's trainers), the
# handler itself raises UnboundLocalError on the first failure, and the
# launcher sees the failed rank.
import logging
import os

LOGGER = logging.getLogger(__name__)


def save_with_message(engine, save_root, ckpt_id):
    save_dir = os.path.join(save_root, "checkpoint")
    status_msg = "checkpointing: PATH={}".format(save_dir)
    trial = 0
    while trial < 10:
        try:
            success = engine.save_checkpoint(save_dir, ckpt_id)  # want CV301 "write"
            if success:
                break
        except Exception:
            trial += 1
            LOGGER.warning(f"Failure {status_msg}")


def save_message_after(engine, save_root, ckpt_id):
    save_dir = os.path.join(save_root, "checkpoint")
    trial = 0
    while trial < 10:
        try:
            success = engine.save_checkpoint(save_dir, ckpt_id)
            status_msg = "checkpointing: PATH={}, ckpt_id={}".format(save_dir, ckpt_id)
            if success:
                LOGGER.info(f"Success {status_msg}")
                break
        except Exception:
            trial += 1
            LOGGER.warning(f"Failure {status_msg}")
