#!/usr/bin/env python3
"""The descriptions of the shared output fields are written once, in the
catalog src/report/out_fields.h: every schema of a command that writes
such a field (JSON property or CSV column) must describe it in the
catalog's words.  Quantiles under "uncertainty" describe their samples and
are left out; EXCEPTIONS would list a field that means something else in one
command (it lists none).

Usage: tests/schema/fields-check.py          exit 1 and say where on a difference
       tests/schema/fields-check.py --write  rewrite the schemas' descriptions
"""
import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CATALOG = os.path.join(ROOT, "src", "report", "out_fields.h")
SCHEMAS = ["estimate", "explain", "compare", "plan", "sweep", "validate", "validate-campaigns",
           "validate-cross", "validate-fit"]
# (schema, field): the field keeps a meaning of its own there.  None: every
# name means one thing wherever it is written.
EXCEPTIONS = {}
ENTRY = re.compile(r'X\((\w+), "((?:[^"\\]|\\.)*)", \w+, [^,]+, [^,]+, (?:NULL|"[^"]*"), \w+, '
                   r'"((?:[^"\\]|\\.)*)"\)')


def catalog():
    with open(CATALOG) as f:
        found = {m.group(1): m.group(3) for m in ENTRY.finditer(f.read())}
    if len(found) < 15:
        raise SystemExit("%s: read %d fields, expected the catalog's (one X(...) a line)"
                         % (CATALOG, len(found)))
    return found


def walk(s, path, cat, schema, bad, write):
    if not isinstance(s, dict):
        return
    for name, sub in s.get("properties", {}).items():
        p = path + name
        if name == "uncertainty":
            continue
        # an array or object of a document is no field: its entries are
        if name in cat and (schema, name) not in EXCEPTIONS and isinstance(sub, dict) \
                and sub.get("type") not in ("array", "object"):
            if sub.get("description") != cat[name]:
                if write:
                    sub["description"] = cat[name]
                else:
                    bad.append("%s: %s says %r, the catalog %r"
                               % (schema, p, sub.get("description"), cat[name]))
        walk(sub, p + ".", cat, schema, bad, write)
    if isinstance(s.get("items"), dict):
        walk(s["items"], path + "[].", cat, schema, bad, write)
    for key in ("$defs", "definitions"):
        for name, sub in s.get(key, {}).items():
            walk(sub, path + "#" + name + ".", cat, schema, bad, write)


def main():
    write = len(sys.argv) > 1 and sys.argv[1] == "--write"
    cat = catalog()
    bad = []
    for schema in SCHEMAS:
        path = os.path.join(ROOT, "docs", "schema", schema + ".schema.json")
        with open(path) as f:
            s = json.load(f)
        walk(s, "", cat, schema, bad, write)
        cols = s.get("x-csv", {}).get("columns", {})
        for name in cols:
            if name in cat and (schema, name) not in EXCEPTIONS and cols[name] != cat[name]:
                if write:
                    cols[name] = cat[name]
                else:
                    bad.append("%s: CSV column %s says %r, the catalog %r"
                               % (schema, name, cols[name], cat[name]))
        if write:
            with open(path, "w") as f:
                f.write(json.dumps(s, indent=2, ensure_ascii=False) + "\n")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
