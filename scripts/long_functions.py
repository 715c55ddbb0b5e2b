#!/usr/bin/env python3
"""Lists C++ function definitions longer than a limit (default 60 lines), longest first.

usage: scripts/long_functions.py [--max N] [paths...]   (default paths: server bridge cli)

A function's length runs from the first line of its signature to its closing brace.  Lambdas
and local classes count toward the function that holds them.  The scan is lexical, not a
parse: comments, string and character literals (raw strings too) are blanked first, then a
brace opens a function when the text before it, back to the previous ';', '{' or '}', has a
parameter list and is not a control statement, a type or namespace, or an initializer.  It
is made for this code base's formatting; it prints what it finds and always exits 0.
"""
import argparse
import os
import re
import sys

SOURCE_EXT = (".cpp", ".hpp", ".h", ".cc")
NOT_A_FUNCTION = re.compile(
    r"^\s*(?:if|for|while|switch|catch|do|else|try|namespace|class|struct|union|enum|extern|return|case|default)\b")
TYPE_HEAD = re.compile(r"(?:^|[\s>])(?:class|struct|union|enum(?:\s+class)?|namespace)\s+[\w:]*\s*(?:final\s*)?(?::[^()]*)?$")


def blank(text):
    """Comments and literals replaced by spaces, newlines kept, so offsets and lines hold."""
    out = list(text)
    i, n = 0, len(text)

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\\s]{0,16})\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            wipe(i + 1, j)
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


def function_name(head):
    """The qualified name before the parameter list, or None when `head` has none."""
    depth = 0
    for k, ch in enumerate(head):
        if ch in "<[":
            depth += 1
        elif ch in ">]":
            depth = max(0, depth - 1)
        elif ch == "(" and depth == 0:
            m = re.search(r"(~?[\w:]*(?:operator\s*\S+?|[\w~]+))\s*$", head[:k])
            return m.group(1) if m else None
    return None


def is_function_head(head):
    h = " ".join(head.split())
    if not h or "(" not in h or NOT_A_FUNCTION.match(h) or TYPE_HEAD.search(h):
        return False
    if re.search(r"(?:^|[^=!<>])=\s*[^=]*$", h.split(")")[-1]):  # `x = {`, `auto t = f(a) {…`
        return False
    if re.search(r"\]\s*(?:\([^)]*\))?\s*(?:mutable\s*)?(?:->\s*[\w:<>,\s]+)?$", h):  # a lambda
        return False
    if h.rstrip().endswith(","):
        return False
    return function_name(h) is not None


def scan(path, text):
    code = blank(text)
    starts = [0]
    for k, ch in enumerate(code):
        if ch == "\n":
            starts.append(k + 1)

    def line_of(offset):
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    found = []
    stack = []  # for each open brace: (kind, head start offset, name)
    last_delim = -1
    for k, ch in enumerate(code):
        if ch in ";":
            last_delim = k
        elif ch == "{":
            head = code[last_delim + 1:k]
            inside_function = any(kind == "function" for kind, _, _ in stack)
            if not inside_function and is_function_head(head):
                head_start = last_delim + 1 + (len(head) - len(head.lstrip()))
                stack.append(("function", head_start, function_name(" ".join(head.split()))))
            else:
                stack.append(("block", k, None))
            last_delim = k
        elif ch == "}":
            if stack:
                kind, head_start, name = stack.pop()
                if kind == "function":
                    first, last = line_of(head_start), line_of(k)
                    found.append((last - first + 1, path, first, name))
            last_delim = k
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=60, help="list functions longer than this many lines")
    ap.add_argument("paths", nargs="*", default=["server", "bridge", "cli"])
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results = []
    for p in args.paths:
        p = p if os.path.isabs(p) else os.path.join(root, p)
        files = [p] if os.path.isfile(p) else [
            os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs if f.endswith(SOURCE_EXT)]
        for f in sorted(files):
            with open(f, encoding="utf-8", errors="replace") as fh:
                results += scan(os.path.relpath(f, root), fh.read())
    long_ones = sorted((r for r in results if r[0] > args.max), key=lambda r: (-r[0], r[1], r[2]))
    for length, path, line, name in long_ones:
        print(f"{length:5d}  {path}:{line}  {name}")
    print(f"{len(long_ones)} function(s) over {args.max} lines of {len(results)} found", file=sys.stderr)


if __name__ == "__main__":
    main()
