# min: 3.12
# positions: yes
# PEP 701 f-strings: quote reuse, nesting, comments, backslashes.
songs = ["a", "b"]
a = f"This is the playlist: {", ".join(songs)}"
b = f"{f"{f"{f"{1+1}"}"}"}"
c = f"{'\n'.join(x)}"
d = f"{x:{width}.{prec}f} {y!r:>10} {z=} {w = !s}"
e = f"""{
    x  # a comment
    + 1
}"""
g = f"{x:}" rf"\d{x}" "plain" f"{'''a'''}"
h = f"{(lambda: 1)}"
