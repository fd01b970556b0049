#!/usr/bin/python3
"""Checks JSON documents against a JSON Schema (draft 2020-12): for each document that does not
conform, prints the file, the path inside it and the most specific violation, and exits 1; else
prints how many documents conform. The schemas beside SCHEMA (harness/schema/*.json) resolve the
references between them by their $id. Debian's python3-jsonschema.
  check-schema.py SCHEMA DOCUMENT..."""
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator, RefResolver
from jsonschema.exceptions import best_match

schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
store = {}
for path in glob.glob(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "*.json")):
    sibling = json.load(open(path))
    store[sibling["$id"]] = sibling
validator = Draft202012Validator(schema, resolver=RefResolver.from_schema(schema, store=store))
bad = 0
for path in sys.argv[2:]:
    error = best_match(validator.iter_errors(json.load(open(path))))
    if error is not None:
        print(f"{path}: at /{'/'.join(map(str, error.absolute_path))}: {error.message[:400]}")
        bad += 1
if bad:
    sys.exit(1)
print(f"{len(sys.argv) - 2} documents conform to {sys.argv[1]}")
