#!/usr/bin/python3
"""fixsuggest.sarif_schema, fixsuggest.sarif_schema_header: the SARIF written
by fixsuggest.golden (and fixsuggest.cxx's system-header loop) validates
against the SARIF 2.1.0 JSON schema (draft-04; provenance in
sarif-schema-2.1.0.README), with Debian's python3-jsonschema.

usage: sarif_validate.py TESTSRCDIR SARIF
"""
import json
import os
import sys


def main():
    src, path = sys.argv[1:3]
    schema_path = os.path.join(src, "sarif-schema-2.1.0.json")
    import jsonschema
    schema = json.load(open(schema_path))
    doc = json.load(open(path))
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc), key=str)
    for e in errors:
        print("FAIL: %s at %s" % (e.message, "/".join(map(str, e.absolute_path))))
    # what GitHub code scanning needs beyond the schema
    run = doc["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    ok = not errors and len(ids) == len(set(ids)) and run["tool"]["driver"].get("informationUri")
    for res in run["results"]:
        loc = res["locations"][0]["physicalLocation"]
        ok = ok and res["ruleId"] in ids and loc["region"]["startLine"] >= 1 and \
            res["partialFingerprints"] and not loc["artifactLocation"]["uri"].startswith("/")
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
