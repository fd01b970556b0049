#!/usr/bin/python3
"""Reads a SARIF 2.1.0 log as a consumer does: into the SARIF object model of Debian's
python3-sarif-python-om (classes generated from the SARIF 2.1.0 JSON schema), where a property
the model does not define or a required one missing is an error, then checks what the object
model leaves to the reader (the version, enumerations, rule and artifact indexes, URIs). Prints
each problem and exits 1; else prints one line per result:
  RULE LEVEL FULLY-QUALIFIED-NAME BYTE-OFFSET MODEL,MODEL,... [suppressed]
  check-sarif.py LOG"""
import json
import sys
from urllib.parse import urlparse

import attr
import sarif_om as om

# The object-model class of each property holding an object (or a list of them), by its owner.
CHILD = {
    (om.SarifLog, "runs"): om.Run,
    (om.Run, "tool"): om.Tool,
    (om.Run, "invocations"): om.Invocation,
    (om.Run, "artifacts"): om.Artifact,
    (om.Run, "results"): om.Result,
    (om.Tool, "driver"): om.ToolComponent,
    (om.ToolComponent, "rules"): om.ReportingDescriptor,
    (om.ReportingDescriptor, "shortDescription"): om.MultiformatMessageString,
    (om.ReportingDescriptor, "fullDescription"): om.MultiformatMessageString,
    (om.ReportingDescriptor, "help"): om.MultiformatMessageString,
    (om.ReportingDescriptor, "defaultConfiguration"): om.ReportingConfiguration,
    (om.Artifact, "location"): om.ArtifactLocation,
    (om.Result, "message"): om.Message,
    (om.Result, "locations"): om.Location,
    (om.Result, "suppressions"): om.Suppression,
    (om.Location, "physicalLocation"): om.PhysicalLocation,
    (om.Location, "logicalLocations"): om.LogicalLocation,
    (om.PhysicalLocation, "artifactLocation"): om.ArtifactLocation,
    (om.PhysicalLocation, "region"): om.Region,
}
problems = []


def load(cls, value, path):
    """value (a JSON object) as an instance of cls; problems noted with their path."""
    if not isinstance(value, dict):
        problems.append(f"{path}: {cls.__name__} must be an object")
        return None
    names = {f.metadata["schema_property_name"]: f.name for f in attr.fields(cls)}
    args = {}
    for key, v in value.items():
        if key == "properties":  # a property bag: any keys (SARIF 3.8)
            if not isinstance(v, dict):
                problems.append(f"{path}/properties: a property bag must be an object")
            args["properties"] = v
            continue
        if key not in names:
            problems.append(f"{path}: {cls.__name__} has no property '{key}'")
            continue
        child = CHILD.get((cls, key))
        if child and isinstance(v, list):
            v = [load(child, item, f"{path}/{key}/{i}") for i, item in enumerate(v)]
        elif child:
            v = load(child, v, f"{path}/{key}")
        elif isinstance(v, (dict, list)) and key != "roles":
            problems.append(f"{path}/{key}: not read by this checker")
        args[names[key]] = v
    try:
        return cls(**args)
    except TypeError as e:  # a required property missing
        problems.append(f"{path}: {cls.__name__}: {e}")
        return None


def check(log):
    """What the object model does not enforce of the schema and the specification."""
    if log.version != "2.1.0":
        problems.append(f"version is {log.version!r}, not 2.1.0")
    for r, run in enumerate(log.runs or []):
        rules = run.tool.driver.rules or []
        artifacts = run.artifacts or []
        for a in artifacts:
            if urlparse(a.location.uri).scheme != "file":
                problems.append(f"artifact {a.location.uri}: not a file URI")
        for i, res in enumerate(run.results or []):
            where = f"/runs/{r}/results/{i}"
            if res.level not in ("none", "note", "warning", "error"):
                problems.append(f"{where}: level {res.level!r}")
            if not (0 <= res.rule_index < len(rules)) or rules[res.rule_index].id != res.rule_id:
                problems.append(f"{where}: ruleIndex {res.rule_index} is not rule {res.rule_id}")
            if not res.message.text:
                problems.append(f"{where}: a message without text")
            for s in res.suppressions or []:
                if s.kind not in ("inSource", "external"):
                    problems.append(f"{where}: suppression kind {s.kind!r}")
            for loc in res.locations or []:
                al = loc.physical_location.artifact_location
                if not (0 <= al.index < len(artifacts)) or artifacts[al.index].location.uri != al.uri:
                    problems.append(f"{where}: artifact index {al.index} is not {al.uri}")
                region = loc.physical_location.region
                if region is not None and not (isinstance(region.byte_offset, int) and region.byte_offset >= 0):
                    problems.append(f"{where}: byteOffset {region.byte_offset!r}")


log = load(om.SarifLog, json.load(open(sys.argv[1])), "")
if log is not None and not problems:
    check(log)
for p in problems:
    print(f"{sys.argv[1]}: {p}")
if problems or log is None:
    sys.exit(1)
for run in log.runs:
    for res in run.results or []:
        loc = res.locations[0]
        region = loc.physical_location.region
        print(res.rule_id, res.level, loc.logical_locations[0].fully_qualified_name,
              region.byte_offset if region else "-", ",".join(sorted(res.properties["models"])),
              "suppressed" if res.suppressions else "")
