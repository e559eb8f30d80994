def check():
    raise ValueError("bad")

check()
