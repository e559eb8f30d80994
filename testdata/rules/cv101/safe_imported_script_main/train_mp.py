# A second entry point runs train.main on a helper thread. Importing
# train does not run its `if __name__ == "__main__":` block, so in this
# process main runs on one thread only (vectorlm's llama_example_mp).
import threading
import time

from train import main


def serve():
    while True:
        time.sleep(1)


if __name__ == "__main__":
    worker = threading.Thread(target=main, name="trainer")
    worker.start()
    serve()
