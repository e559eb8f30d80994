def outer():
    def inner():
        pass
    inner()

outer()
