def handler():
    pass

def risky():
    pass

try:
    risky()
except Exception:
    handler()
