items = [3, 1, 2]
print(len(items))
sorted(items)
