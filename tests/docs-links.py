#!/usr/bin/env python3
"""Every relative link of README.md, docs/*.md and bench/RESULTS.md names a file that exists (and,
with a #fragment, a heading of that file), and README.md stays under 200 lines. Prints each broken
link with its file and line; exits 1 on any.
  docs-links.py SOURCE_DIR"""
import glob
import os
import re
import sys

README_MAX_LINES = 200
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(path):
    """The lines of a Markdown file outside fenced code blocks, with their numbers."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced:
                yield number, line


def anchors(path):
    return {slug(line.lstrip("#")) for _, line in prose_lines(path) if line.startswith("#")}


def main(root):
    docs = [os.path.join(root, "README.md"), os.path.join(root, "bench", "RESULTS.md")]
    docs += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    bad = 0
    for doc in docs:
        for number, line in prose_lines(doc):
            for target in LINK.findall(INLINE_CODE.sub("", line)):
                if re.match(r"^[a-z]+:", target):
                    continue  # http:, https:, mailto: are not the tree's
                name, _, fragment = target.partition("#")
                path = os.path.normpath(os.path.join(os.path.dirname(doc), name)) if name else doc
                where = f"{os.path.relpath(doc, root)}:{number}"
                if not os.path.exists(path):
                    print(f"not ok - {where}: {target}: no such file", file=sys.stderr)
                    bad += 1
                elif fragment and path.endswith(".md") and fragment not in anchors(path):
                    print(f"not ok - {where}: {target}: no heading #{fragment} in {name or 'this file'}",
                          file=sys.stderr)
                    bad += 1
    with open(docs[0], encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    if lines >= README_MAX_LINES:
        print(f"not ok - README.md has {lines} lines, the limit is under {README_MAX_LINES}: "
              "move the detail to docs/", file=sys.stderr)
        bad += 1
    print(f"{'not ok' if bad else 'ok'} - {len(docs)} documents, README.md {lines} lines, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
