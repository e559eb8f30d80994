from ext import Base

class Mine(Base):
    def go(self):
        self.helper()

m = Mine()
m.go()
