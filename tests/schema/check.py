#!/usr/bin/env python3
"""Check one command's output against its schema (docs/schema/NAME.schema.json).

  check.py SCHEMA json FILE   the document validates against the schema
  check.py SCHEMA csv FILE    the header holds the documented columns
                              (x-csv), in order, and every row has as many
                              fields as the header
  check.py --batch LIST       each line of LIST: NAME|SCHEMA|json or csv|FILE;
                              prints "ok NAME" or "FAIL NAME: why" for each

Prints nothing and exits 0 when the output conforms; otherwise prints one
line saying what is wrong and exits 1.  Exits 2 when the validator is
missing (Debian: python3-jsonschema; scripts/install-deps installs it).
"""
import csv
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (scripts/install-deps installs it)")
    sys.exit(2)

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "schema")


def load_schema(name):
    with open(os.path.join(SCHEMA_DIR, name + ".schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def check_json(schema, path):
    with open(path) as f:
        doc = json.load(f)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc),
                    key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        return "%s: %s (%d error%s)" % (where, e.message[:300], len(errors),
                                        "" if len(errors) == 1 else "s")
    return None


def check_csv(schema, path):
    spec = schema.get("x-csv")
    if not spec:
        return "the schema documents no CSV columns, but the command wrote CSV"
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return "no header row"
    header = rows[0]
    documented = list(spec["columns"])
    optional = set(spec.get("optional", []))
    got = header
    if spec.get("inputs_after"):
        # A sweep's varied keys: dotted paths right after that column.
        at = spec["inputs_after"]
        if not header or header[0] != at:
            return "the header starts with '%s' (expected '%s')" % (header[0] if header else "", at)
        k = 1
        while k < len(header) and "." in header[k]:
            k += 1
        got = [at] + header[k:]
    want = [c for c in documented if c not in optional or c in got]
    if got != want:
        extra = [c for c in got if c not in documented]
        missing = [c for c in want if c not in got]
        return "header %s (expected %s%s%s)" % (
            ",".join(header), ",".join(want),
            "; undocumented: " + ",".join(extra) if extra else "",
            "; missing: " + ",".join(missing) if missing else "")
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            return "row %d has %d fields, the header %d" % (n, len(row), len(header))
    return None


def batch(path):
    schemas = {}
    with open(path) as f:
        for line in f:
            name, schema, kind, out = line.rstrip("\n").split("|", 3)
            if schema not in schemas:
                schemas[schema] = load_schema(schema)
            why = (check_json if kind == "json" else check_csv)(schemas[schema], out)
            print("FAIL %s: %s" % (name, why) if why else "ok " + name)
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--batch":
        return batch(sys.argv[2])
    if len(sys.argv) != 4 or sys.argv[2] not in ("json", "csv"):
        print("usage: check.py SCHEMA json|csv FILE")
        return 2
    schema = load_schema(sys.argv[1])
    why = (check_json if sys.argv[2] == "json" else check_csv)(schema, sys.argv[3])
    if why:
        print(why)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
