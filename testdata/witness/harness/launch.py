"""Runs one witness fixture as one rank, under collvet_guard.

    python3 launch.py FIXTURE.py

Environment (set by the Go witness test and scripts/witness/hangrate.py):

  RANK, WORLD_SIZE, WITNESS_INIT   rank, world size, init_method (tcp://host:port or file://path)
  WITNESS_BACKEND                  gloo (default) or nccl; read by the fixture
  WITNESS_GUARD_DIR                directory holding collvet_guard.py
  WITNESS_GUARD_MODE               off | warn (default) | raise | serialize
  WITNESS_DEVICE_BACKENDS          comma list: backends the guard counts as
                                   device communicators (default: not gloo)
  WITNESS_JSON                     where to dump the guard's record ({rank})
  WITNESS_TIMEOUT                  seconds before the run counts as hung

A hung run dumps every thread's stack to stderr, writes the guard record, and
exits with status 124 (the faulthandler timer is a backstop for a hang that
holds the GIL: it dumps and exits with status 1).
"""

import faulthandler
import os
import runpy
import sys
import threading

HANG_EXIT = 124


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: launch.py FIXTURE.py\n")
        return 2
    fixture = os.path.abspath(sys.argv[1])
    timeout = float(os.environ.get("WITNESS_TIMEOUT", "60"))
    mode = os.environ.get("WITNESS_GUARD_MODE", "warn")
    out = os.environ.get("WITNESS_JSON", "")
    rank = os.environ.get("RANK", "0")
    guard = None
    if mode != "off":
        sys.path.insert(0, os.environ["WITNESS_GUARD_DIR"])
        import collvet_guard as guard

        backends = os.environ.get("WITNESS_DEVICE_BACKENDS")
        guard.install(mode=mode, device_backends=backends.split(",") if backends else None)

    def dump():
        if guard is not None and out:
            guard.dump_json(out.replace("{rank}", rank))

    done = threading.Event()

    def watchdog():
        if done.wait(timeout):
            return
        sys.stderr.write("witness: rank %s hung for %.0f s; stacks follow\n" % (rank, timeout))
        faulthandler.dump_traceback(all_threads=True)
        sys.stderr.flush()
        try:
            dump()
        finally:
            os._exit(HANG_EXIT)

    faulthandler.dump_traceback_later(timeout + 10, exit=True)
    threading.Thread(target=watchdog, name="witness-watchdog", daemon=True).start()
    sys.argv = [fixture]
    sys.path.insert(0, os.path.dirname(fixture))
    try:
        runpy.run_path(fixture, run_name="__main__")
    finally:
        done.set()
        faulthandler.cancel_dump_traceback_later()
        dump()
    return 0


if __name__ == "__main__":
    sys.exit(main())
