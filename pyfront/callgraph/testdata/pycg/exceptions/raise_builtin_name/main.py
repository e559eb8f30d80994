from errs import Fatal


def stop():
    raise KeyboardInterrupt


def abort():
    raise Fatal


def run():
    try:
        stop()
    except KeyboardInterrupt:
        abort()


run()
