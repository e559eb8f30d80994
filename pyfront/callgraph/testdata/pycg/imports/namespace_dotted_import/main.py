import api.trainer

api.trainer.func()
