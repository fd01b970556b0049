#!/usr/bin/env python3
"""The folders of harness/src include each other only downwards: util <- model <- image <- engine,
audit <- report. A public header harness/include/eh/NAME.h belongs to the folder that implements
NAME (harness/src/FOLDER/NAME.c). The erratum modules (harness/errata/) include only the kit,
eh/sys/*.h, and headers of their own folder. Prints every include that goes sideways or up, and the
folder graph; exits 1 on a violation or on a header no folder implements.
  include-graph.py SOURCE_DIR"""
import os
import re
import sys

# Each folder may include only folders of a lower rank (and itself).
RANK = {"util": 0, "model": 1, "image": 2, "engine": 3, "audit": 3, "report": 4}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main(root):
    src = os.path.join(root, "harness", "src")
    pub = os.path.join(root, "harness", "include", "eh")
    owner = {}      # public header name -> folder
    files = []      # (folder, path)
    for folder in sorted(os.listdir(src)):
        if folder not in RANK:
            print(f"{src}/{folder}: a folder the layer table does not know", file=sys.stderr)
            return 1
        for name in sorted(os.listdir(os.path.join(src, folder))):
            files.append((folder, os.path.join(src, folder, name)))
            owner.setdefault(os.path.splitext(name)[0] + ".h", folder)
    for name in sorted(os.listdir(pub)):
        if name.endswith(".h"):
            if name not in owner:
                print(f"{pub}/{name}: no folder of harness/src implements it", file=sys.stderr)
                return 1
            files.append((owner[name], os.path.join(pub, name)))
    bad = 0
    edges = {}
    for folder, path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            head, _, tail = inc.partition("/")
            if head == "eh":
                to = owner.get(tail)
            elif head in RANK:
                to = head
            else:
                continue    # a header beside the file, or the models'/cases' own
            if to is None:
                continue    # eh/sys/ and other public headers checked above
            if to != folder:
                edges.setdefault(folder, set()).add(to)
                if RANK[to] >= RANK[folder]:
                    print(f"{os.path.relpath(path, root)}: {folder} includes {inc} of {to}",
                          file=sys.stderr)
                    bad += 1
    bad += errata_includes(root)
    for folder in sorted(RANK, key=lambda k: (RANK[k], k)):
        print(f"{folder} -> {' '.join(sorted(edges.get(folder, ()))) or '(nothing)'}")
    return 1 if bad else 0


def errata_includes(root):
    """How many includes of harness/errata/ reach past the kit (eh/sys/) and the file's own folder."""
    errata = os.path.join(root, "harness", "errata")
    bad = 0
    for folder, _, names in sorted(os.walk(errata)):
        for name in sorted(names):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                if inc.startswith("eh/sys/") or ("/" not in inc and os.path.exists(os.path.join(folder, inc))):
                    continue
                print(f"{os.path.relpath(path, root)}: an erratum module includes {inc}, not the kit "
                      "(eh/sys/) nor its own folder", file=sys.stderr)
                bad += 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
