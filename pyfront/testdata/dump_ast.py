"""Dump CPython's ast for many files, for the parser's differential test.

Reads file paths, one per line, on stdin. For each writes a header line
"<status> <nbytes> <path>\n" followed by nbytes of UTF-8 payload: for
status OK the ast.dump(..., include_attributes=True) text, for status ERR the
SyntaxError message. Run with the interpreter whose grammar is the
reference; argv[1] (optional) is "attrs" (default) or "noattrs".
"""
import ast
import sys
import warnings

def main():
    attrs = len(sys.argv) < 2 or sys.argv[1] != "noattrs"
    out = sys.stdout.buffer
    warnings.simplefilter("ignore")
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        try:
            with open(path, "rb") as f:
                src = f.read()
            text = ast.dump(ast.parse(src, path), include_attributes=attrs)
            status = "OK"
        except (SyntaxError, ValueError) as e:
            text = "%s: %s" % (type(e).__name__, e)
            status = "ERR"
        except RecursionError as e:
            text = "RecursionError: %s" % e
            status = "ERR"
        data = text.encode("utf-8", "surrogatepass")
        out.write(("%s %d %s\n" % (status, len(data), path)).encode("utf-8", "surrogateescape"))
        out.write(data)
    out.flush()

main()
