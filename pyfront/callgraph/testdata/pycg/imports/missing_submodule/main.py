# "from pkg import ext": pkg is a package of the program, but ext is in
# neither its __init__ nor its files (a compiled extension, a module left
# out of the analysed tree). It resolves by qualified name, as a module
# outside the program would, while names pkg binds resolve to them.
from pkg import ext
from pkg import helper
from pkg import VERSION


def run(x):
    ext.compute(x)
    helper.go(x)
    return VERSION
