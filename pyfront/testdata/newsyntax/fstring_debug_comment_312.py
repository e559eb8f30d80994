# min: 3.12
# A comment after "=" in a debug field is left out of the debug text.
x = f"{1+2 = # my comment
  }"
y = 2
