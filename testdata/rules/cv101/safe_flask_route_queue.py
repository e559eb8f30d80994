# The views only queue the requests; one loop on the main thread takes
# them in turn and issues every collective.
import queue

import torch.distributed as dist
from flask import Flask, jsonify, request

app = Flask(__name__)
requests = queue.Queue()


@app.route("/run", methods=["POST"])
def run():
    done = queue.Queue(maxsize=1)
    requests.put((request.json, done))
    return jsonify(done.get())


def serve_loop():
    while True:
        payload, done = requests.get()
        data = [payload]
        dist.broadcast_object_list(data, src=0)
        done.put(data[0])
