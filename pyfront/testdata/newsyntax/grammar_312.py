# min: 3.12
# Constructs valid in 3.12 outside f-strings, with positions.
def f(*args: *Ts): pass
x[*a, b] = y
with (
    open(a) as f,
    open(b) as g,
):
    pass
try:
    pass
except* (ValueError, TypeError) as eg:
    raise
match command.split():
    case [action]:
        pass
    case [action, obj]:
        pass
    case Point(x=0, y=0) | {"k": [1, 2, *rest]} if rest:
        pass
    case (1 | 2 | -3.5 | 4+5j) as n:
        pass
    case {**kw}:
        pass
    case _:
        pass
lambda a, /, b=1, *c, d, e=2, **f: (a, b, c, d, e, f)
(y := 10)
print(*(z for z in range(3)), sep=(yield))
@x.y[0](1)
def g(): nonlocal_ = [i async for i in aiter() if await i]
