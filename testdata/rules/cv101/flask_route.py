# Flask serves each request on its own thread (app.run() is threaded by
# default): two requests at once issue the broadcasts on the default group
# from two threads, in an order the worker ranks cannot follow.
import torch.distributed as dist
from flask import Blueprint, Flask, jsonify, request

app = Flask(__name__)
api = Blueprint("api", __name__)


@app.route("/run", methods=["POST"])
def run():
    data = [request.json]
    dist.broadcast_object_list(data, src=0)  # want CV101 "broadcast_object_list"
    return jsonify(data)


@api.post("/score")
def score():
    out = [None]
    dist.broadcast_object_list(out, src=1)  # want CV101 "broadcast_object_list"
    return jsonify(out)


def serve():
    dist.init_process_group("gloo")
    app.register_blueprint(api)
    if dist.get_rank() == 0:
        app.run(port=8000)
