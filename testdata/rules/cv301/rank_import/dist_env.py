# Rank names bound once, at import time, for the rest of the program.
import os

RANK = int(os.environ.get("RANK", "0"))
LOCAL_RANK = int(os.environ.get("LOCAL_RANK", "-1"))
WORLD_SIZE = int(os.environ.get("WORLD_SIZE", "1"))
DISTRIBUTED = LOCAL_RANK != -1
