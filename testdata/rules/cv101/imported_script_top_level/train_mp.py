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
