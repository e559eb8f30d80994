# min: 3.12
# Exact PEP 701 f-string positions, including format specs and debug text.
x = f"a{x}b"
y = "p" f"a{x!r:>{w}.3}b" "q"
z = f"{x=}" f'''
{y:
}'''
w = f"{x["a"]}" rf"\d{x}" f"{'''a'''}" f"" "s"
v = f"{x:}{y::}"
a = f"a{{b}}c{x}"
b = f"\n\t{x}é{y}"
c = f"{x!r}" f"{y}"
d = f"""ab
cd{x}
ef"""
e = f"{x:{y}}"
g = f"{ x = }"
a = f"{x:{y}}"
b = f"{x:a{y}}"
c = f"{x:{y}a}"
d = f"{x:{y}{z}}"
e = f"a{x=}"
f = f"{x!r:{y}}"
g = f"{x:{y:{z}}}"
