#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Validate SARIF logs against the SARIF 2.1.0 JSON schema of the OASIS
standard, kept next to this script (sarif-schema-2.1.0.json; where it comes
from: sarif-schema-2.1.0.ORIGIN).

  validate-sarif.py LOG.sarif [MORE...]     ("-" reads a log from stdin)

Prints "validate-sarif: FILE: valid" for a log the schema accepts, else one
line per error, "validate-sarif: FILE: PATH: MESSAGE", where PATH is the
JSON path of the offending value (runs[0].results[3].locations). Exits 0
when every log is valid, 1 when any log has a schema error, 2 on a usage
error or a log that cannot be read or is not JSON.

Needs python3-jsonschema (Debian) and nothing else: the schema's $refs are
all local ("#/definitions/..."), resolved against the schema file itself,
which is registered under its own $id, so nothing is fetched. Formats are
checked where jsonschema can without optional packages (date-time, uri and
uri-reference need extra ones, and go unchecked without them).
"""
import json
import os
import sys

import jsonschema

PROG = "validate-sarif"
SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "sarif-schema-2.1.0.json")


def load_schema():
    try:
        with open(SCHEMA_PATH, encoding="utf-8") as f:
            schema = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("%s: cannot read the schema %s: %s" % (PROG, SCHEMA_PATH, e))
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    cls.check_schema(schema)
    return schema, cls


def make_validator(schema, cls):
    """A validator whose $ref resolution never leaves the local schema."""
    base = schema.get("$id") or schema.get("id") or "urn:sarif-schema-2.1.0"
    kwargs = {"format_checker": cls.FORMAT_CHECKER}
    try:  # jsonschema >= 4.18: the referencing library
        import referencing
        import referencing.exceptions
        import referencing.jsonschema

        spec = referencing.jsonschema.specification_with(
            schema.get("$schema", ""), default=referencing.jsonschema.DRAFT7)
        resource = referencing.Resource(contents=schema, specification=spec)

        def no_network(uri):
            raise referencing.exceptions.NoSuchResource(ref=uri)

        registry = referencing.Registry(retrieve=no_network).with_resource(base, resource)
        return cls(schema, registry=registry, **kwargs)
    except (ImportError, TypeError):  # older jsonschema (Debian 12: 4.10)
        pass

    def refuse(uri):
        raise jsonschema.RefResolutionError("not fetching %s" % uri)

    resolver = jsonschema.RefResolver(base, schema, store={base: schema},
                                      handlers={"http": refuse, "https": refuse})
    return cls(schema, resolver=resolver, **kwargs)


def json_path(path):
    out = ""
    for part in path:
        if isinstance(part, int):
            out += "[%d]" % part
        else:
            out += ("." if out else "") + str(part)
    return out or "(root)"


def describe(error):
    """PATH: MESSAGE for an error; under an anyOf/oneOf, the most relevant
    failure of its alternatives, saying that none of them matched."""
    note = ""
    while error.context:
        best = jsonschema.exceptions.best_match(error.context)
        if best is None:
            break
        alternatives = len(error.validator_value)
        note = " (%s: none of %d alternatives matched)" % (error.validator, alternatives)
        error = best
    return "%s: %s%s" % (json_path(error.absolute_path), error.message, note)


def read_log(name):
    try:
        if name == "-":
            return json.load(sys.stdin), "<stdin>"
        with open(name, encoding="utf-8") as f:
            return json.load(f), name
    except (OSError, UnicodeDecodeError) as e:
        print("%s: %s: cannot read: %s" % (PROG, name, e), file=sys.stderr)
    except ValueError as e:
        print("%s: %s: not JSON: %s" % (PROG, name, e), file=sys.stderr)
    return None, name


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: %s LOG.sarif [MORE...]  (- reads stdin)" % PROG,
              file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    schema, cls = load_schema()
    validator = make_validator(schema, cls)
    status = 0
    for name in argv:
        log, label = read_log(name)
        if log is None:
            status = 2
            continue
        errors = sorted(validator.iter_errors(log),
                        key=lambda e: [str(p) for p in e.absolute_path])
        if not errors:
            print("%s: %s: valid" % (PROG, label))
            continue
        status = max(status, 1)
        for error in errors:
            print("%s: %s: %s" % (PROG, label, describe(error)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
