# JAX trainers ask object stores through etils.epath (maxtext, paxml),
# TensorFlow's gfile (t5x) and fsspec (levanter): each host asks its own
# view, and a host that sees no checkpoint skips the barrier.
import fsspec
import tensorflow as tf
from etils import epath
from jax.experimental import multihost_utils


def restore_epath(d):
    if epath.Path(d).exists():
        multihost_utils.sync_global_devices("restore")  # want CV301 "a file system check that each rank makes on its own host"


def restore_gfile(d):
    if tf.io.gfile.exists(d):
        multihost_utils.sync_global_devices("restore")  # want CV301 "a file system check that each rank makes on its own host"


def restore_fsspec(d):
    fs = fsspec.filesystem("gs")
    if fs.exists(d):
        multihost_utils.sync_global_devices("restore")  # want CV301 "a file system check that each rank makes on its own host"
