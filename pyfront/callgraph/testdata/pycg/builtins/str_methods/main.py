words = "a b".split(" ")
"-".join(words)
