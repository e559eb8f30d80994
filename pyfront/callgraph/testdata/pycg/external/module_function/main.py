import os

os.path.join("a", "b")
