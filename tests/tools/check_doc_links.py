#!/usr/bin/env python3
"""Every relative link in README.md and docs/*.md names a file that exists, and every
#anchor a heading of that file (GitHub's slugs); README stays within two screens
(100 lines). Prints each broken link with its file and line; exits 1 when any."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
files = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slugs(path):
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            title = re.sub(r"[^\w\- ]", "", title)
            out.add(title.replace(" ", "-"))
    return out


broken = []
for f in files:
    for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
        for target in link.findall(line):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (f.parent / path) if path else f
            if not dest.exists():
                broken.append(f"{f.relative_to(root)}:{n}: {target} does not exist")
            elif anchor and dest.suffix == ".md" and anchor not in slugs(dest):
                broken.append(f"{f.relative_to(root)}:{n}: {target} names no heading")
readme_lines = len((root / "README.md").read_text(encoding="utf-8").splitlines())
if readme_lines > 100:
    broken.append(f"README.md has {readme_lines} lines; keep it within 100 and move reference to docs/")
for b in broken:
    print("check_doc_links:", b, file=sys.stderr)
sys.exit(1 if broken else 0)
