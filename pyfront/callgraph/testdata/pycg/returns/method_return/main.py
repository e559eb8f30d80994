class Factory:
    def make(self):
        return Product()

class Product:
    def use(self):
        pass

Factory().make().use()
