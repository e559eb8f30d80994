import importlib


def import_optional(name):
    return importlib.import_module(name)
