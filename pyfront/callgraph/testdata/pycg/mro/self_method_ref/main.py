class Shape:
    def prepare(self):
        self.draw_fn = self.draw

    def draw(self):
        pass


class Square(Shape):
    def draw(self):
        pass


s = Square()
s.prepare()
s.draw_fn()
