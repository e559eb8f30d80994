# An init function binds a module global by an import under `global`;
# the other functions of the module call through it.
def init():
    global tools
    import tools
    tools.setup()


def run():
    tools.func()


init()
run()
