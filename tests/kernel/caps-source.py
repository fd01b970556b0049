#!/usr/bin/env python3
"""Compares the harness's Linux 6.1 or 6.12 capability rules with the kernel tree they restate.

Reads arch/arm64/kernel/cpufeature.c (arm64_features[]) and cpu_errata.c (arm64_errata[]) of a
6.1 or 6.12 tree (whose entries spell their fields with ARM64_CPUID_FIELDS()), with the register layouts of arch/arm64/tools/sysreg and asm/sysreg.h and the CPU
identities of asm/cputype.h, and checks, entry by entry, the rules `errata-harness models --rules
--format json` prints: the same capabilities with the same desc, #ifdef and type; for an ID-field
rule (has_cpuid_feature) the same register, shift, width, signedness and least value; for a MIDR
rule (ERRATA_MIDR_* and the lists they name) the same CPUs, ranges and per-line Kconfig symbols.
Prints one TAP-like line per check; exits 1 on any difference.
   caps-source.py TREE RULES.json
"""
import json
import re
import sys

tree, rules_path = sys.argv[1], sys.argv[2]
failures = 0
checked = {"entries": 0, "field": 0, "midr": 0}


def ok(cond, what):
    global failures
    if cond:
        print("ok - " + what)
    else:
        print("not ok - " + what)
        failures += 1


def read(path):
    with open(f"{tree}/{path}") as f:
        text = f.read()
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


# Register layouts: fields and enumerations of tools/sysreg, and the #defines of asm/sysreg.h.
consts = {}
reg = None
for line in read("arch/arm64/tools/sysreg").splitlines():
    parts = line.split()
    if not parts or parts[0].startswith("#"):
        continue
    if parts[0] == "Sysreg":
        reg = parts[1]
    elif parts[0] in ("Field", "Enum", "UnsignedEnum", "SignedEnum") and reg:
        bits = parts[1].split(":")
        hi, lo = int(bits[0]), int(bits[-1])
        field = f"{reg}_{parts[2]}"
        consts[field + "_SHIFT"] = lo
        consts[field + "_WIDTH"] = hi - lo + 1
        consts[field + "_SIGNED"] = parts[0] == "SignedEnum"
        enum = field
    elif parts[0].startswith("0b") and reg:
        consts[f"{enum}_{parts[1]}"] = int(parts[0], 2)
    elif parts[0] in ("EndSysreg", "EndEnum"):
        if parts[0] == "EndSysreg":
            reg = None
for m in re.finditer(r"#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)\b", read("arch/arm64/include/asm/sysreg.h")):
    consts.setdefault(m.group(1), int(m.group(2), 0))

# CPU identities: MIDR_X -> MIDR_EL1 with variant and revision 0.
cputype = read("arch/arm64/include/asm/cputype.h")
ids = {m.group(1): int(m.group(2), 16) for m in re.finditer(r"#define\s+(\w+_CPU_(?:IMP|PART)_\w+)\s+0x([0-9a-fA-F]+)", cputype)}
midrs = {}
for m in re.finditer(r"#define\s+(MIDR_\w+)\s+MIDR_CPU_MODEL\((\w+),\s*(\w+)\)", cputype):
    midrs[m.group(1)] = ids[m.group(2)] << 24 | 0xF << 16 | ids[m.group(3)] << 4


def conditions(text):
    """Each line of text with the Kconfig condition of the #if blocks around it ('A|B' for a
    disjunction), '?' for a condition that is not a plain CONFIG_ test."""
    stack, out = [], []
    lines = text.replace("\\\n", " ").splitlines()
    for line in lines:
        s = line.strip()
        if re.match(r"#\s*if(def)?\s", s):
            names = re.findall(r"CONFIG_\w+", s)
            plain = re.match(r"#\s*ifdef\s", s) or re.fullmatch(r"#\s*if\s+(defined\(CONFIG_\w+\)\s*(\|\|\s*)?)+", s)
            stack.append("|".join(names) if names and plain else "?")
        elif re.match(r"#\s*endif", s):
            stack.pop()
        elif s.startswith("#else") or s.startswith("#elif"):
            stack[-1] = "?"
        else:
            out.append((line, [c for c in stack]))
    return out


def array_body(text, decl):
    """The text between the braces of the initialiser that follows decl."""
    start = text.index(decl)
    i = text.index("{", start + len(decl))
    depth, j = 0, i
    while True:
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if not depth:
                return text[i + 1:j]
        j += 1


def entries(body):
    """Top-level { ... } entries of an initialiser body, each with its own lines and the conditions
    around it (innermost last), and conditions inside it."""
    lines = conditions(body)
    out, cur, depth, around = [], [], 0, None
    for line, conds in lines:
        for ch in line:
            if ch == "{":
                if depth == 0:
                    cur, around = [], conds
                depth += 1
        if depth:
            cur.append((line, conds))
        depth -= line.count("}")
        if depth == 0 and cur:
            out.append((cur, around))
            cur = []
    return out


def midr_list(text, name):
    """The ranges of a struct midr_range list: (model, v0, r0, v1, r1, config)."""
    body = array_body(text, f"{name}[] = ")
    return parse_ranges(conditions(body))


def parse_ranges(lines):
    out = []
    for line, conds in lines:
        for m in re.finditer(r"MIDR_(ALL_VERSIONS|RANGE|REV_RANGE|REV)\(([^()]*)\)", line):
            args = [a.strip() for a in m.group(2).split(",")]
            model = midrs[args[0]]
            nums = [int(a, 0) for a in args[1:]]
            if m.group(1) == "ALL_VERSIONS":
                rng = (0, 0, 0xF, 0xF)
            elif m.group(1) == "RANGE":
                rng = tuple(nums)
            elif m.group(1) == "REV_RANGE":
                rng = (nums[0], nums[1], nums[0], nums[2])
            else:
                rng = (nums[0], nums[1], nums[0], nums[1])
            out.append((model,) + rng + ((conds[-1] if conds else None),))
    return out


TYPES = {
    "ARM64_CPUCAP_LOCAL_CPU_ERRATUM": 0x21, "ARM64_CPUCAP_BOOT_RESTRICTED_CPU_LOCAL_FEATURE": 0x21,
    "ARM64_CPUCAP_SYSTEM_FEATURE": 0x12, "ARM64_CPUCAP_WEAK_LOCAL_CPU_FEATURE": 0x31,
    "ARM64_CPUCAP_STRICT_BOOT_CPU_FEATURE": 0x44, "ARM64_CPUCAP_BOOT_CPU_FEATURE": 0x14,
}


def kernel_entries(path, decl):
    text = read(path)
    out = []
    for lines, around in entries(array_body(text, decl)):
        joined = " ".join(l for l, _ in lines)
        # 6.12: ARM64_CPUID_FIELDS(reg, field, min) stands for the five fields 6.1 spells out.
        joined = re.sub(r"\bARM64_CPUID_FIELDS\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)",
                        lambda m: f".sys_reg = SYS_{m[1]}, .field_pos = {m[1]}_{m[2]}_SHIFT, "
                                  f".field_width = {consts[f'{m[1]}_{m[2]}_WIDTH']}, "
                                  f".sign = {'FTR_SIGNED' if consts[f'{m[1]}_{m[2]}_SIGNED'] else 'FTR_UNSIGNED'}, "
                                  f".min_field_value = {m[1]}_{m[2]}_{m[3]},", joined)
        cap = re.search(r"\.capability\s*=\s*(ARM64_\w+)", joined)
        if not cap:
            continue  # the empty sentinel
        e = {"name": cap.group(1), "config": around[-1] if around else None, "text": joined}
        m = re.search(r'\.desc\s*=\s*"([^"]*)"', joined)
        e["desc"] = m.group(1) if m else None
        m = re.search(r"\.matches\s*=\s*(\w+)", joined)
        e["matches"] = m.group(1) if m else None
        inner = {c[-1] for _, c in lines if len(c) > len(around or [])}
        e["inner"] = bool(inner)
        m = re.search(r"\.type\s*=\s*(\w+)", joined)
        if re.search(r"\bERRATA_MIDR_", joined) and not m:
            e["type"] = 0x21
        elif m and not inner:
            e["type"] = TYPES[m.group(1)]
        for key in ("sys_reg", "field_pos", "field_width", "sign", "min_field_value"):
            m = re.search(rf"\.{key}\s*=\s*([\w]+)", joined)
            e[key] = m.group(1) if m else None
        m = re.search(r"\b(?:ERRATA|CAP)_MIDR_RANGE_LIST\((\w+)\)", joined) or \
            re.search(r"\.midr_range_list\s*=\s*(\w+)", joined)
        if m:
            e["matches"] = e["matches"] or "is_affected_midr_range_list"
            e["midr"] = midr_list(text, m.group(1))
        m = re.search(r"\bERRATA_MIDR_(RANGE|REV_RANGE|REV|ALL_VERSIONS)\(([^()]*)\)", joined)
        if m and "midr" not in e:
            e["matches"] = e["matches"] or "is_affected_midr_range"
            e["midr"] = parse_ranges([(f"MIDR_{m.group(1)}({m.group(2)})", [])])
        m = re.search(r"MIDR_FIXED\((?:MIDR_CPU_VAR_REV\(\s*(\d+)\s*,\s*(\d+)\s*\)|(\w+))\s*,\s*BIT\((\d+)\)\)",
                      joined)
        if m:
            rv = int(m.group(1)) << 20 | int(m.group(2)) if m.group(1) else int(m.group(3), 0)
            e["fixed"] = (rv, 1 << int(m.group(4)))
        else:
            e["fixed"] = None
        out.append(e)
    return out


def ranges(rs):
    return ", ".join(f"0x{m:08x} r{a}p{b}-r{c}p{d}" + (f" ({cfg})" if cfg else "") for m, a, b, c, d, cfg in rs)


with open(rules_path) as f:
    ours = json.load(f)["rules"]
by_name = {}
for r in ours:
    by_name.setdefault(r["name"], []).append(r)

kernel = kernel_entries("arch/arm64/kernel/cpufeature.c", "arm64_features[] = ") + \
    kernel_entries("arch/arm64/kernel/cpu_errata.c", "arm64_errata[] = ")
ok(len(kernel) == len(ours), f"{len(kernel)} entries in the tree, {len(ours)} rules")
for k, r in zip(kernel, ours):
    what = k["name"]
    checked["entries"] += 1
    ok(r["name"] == k["name"], f"{what}: the rules follow the tree's order (rule: {r['name']})")
    if k["inner"]:
        print(f"ok - {what}: desc and ID field chosen by an #ifdef inside the entry, not compared")
    else:
        ok(r["desc"] == k["desc"], f"{what}: desc {k['desc']!r} (rule: {r['desc']!r})")
    ok(r["config"] == k["config"], f"{what}: built in by {k['config']} (rule: {r['config']})")
    if "type" in k:
        ok(r["type"] == k["type"], f"{what}: type 0x{k['type']:x} (rule: 0x{r['type']:x})")
    if k["matches"]:
        ok(r["kernel_matches"] == k["matches"], f"{what}: .matches {k['matches']} (rule: {r['kernel_matches']})")
    if not k["inner"] and (k["matches"] == "has_cpuid_feature" or (k["sys_reg"] and "field" in r)):
        reg = k["sys_reg"][len("SYS_"):]
        shift = consts.get(k["field_pos"], k["field_pos"])
        width = int(k["field_width"], 0) if k["field_width"] else 4
        minimum = consts.get(k["min_field_value"]) if not (k["min_field_value"] or "0").isdigit() \
            else int(k["min_field_value"])
        f = r.get("field", {})
        got = (f.get("reg"), f.get("shift"), f.get("width"), f.get("signed"), f.get("min"))
        want = (reg, shift, width, k["sign"] == "FTR_SIGNED", minimum)
        checked["field"] += 1
        ok(got == want, f"{what}: field {want} (rule: {got})")
    if "midr" in k:
        got = sorted((int(m["model"], 16), *m["from"], *m["to"], m["config"]) for m in r.get("midr", []))
        checked["midr"] += 1
        ok(got == sorted(k["midr"]), f"{what}: MIDR ranges {ranges(sorted(k['midr']))} (rule: {ranges(got)})")
        fixed = r.get("fixed")
        got_fixed = ((fixed["variant"] << 20 | fixed["revision"]), int(fixed["revidr_mask"], 16)) if fixed else None
        ok(got_fixed == k["fixed"], f"{what}: REVIDR fix {k['fixed']} (rule: {got_fixed})")

print(f"# {checked['entries']} entries compared, {checked['field']} ID-field rules, {checked['midr']} MIDR rules")
sys.exit(1 if failures else 0)
