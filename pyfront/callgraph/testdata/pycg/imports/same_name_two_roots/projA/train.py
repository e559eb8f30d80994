import utils


def main():
    utils.setup()
