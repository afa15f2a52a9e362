#!/usr/bin/env python3
"""Every test tests/test_costs.cmake names is a test of this build (`ctest -N`): a
misspelled or renamed name would otherwise be passed over in silence (set_tests_properties
in a test include file ignores a name it does not know), and its test would start in any
order again. Prints each unknown name; exits 1 when any.

    check_test_costs.py CTEST BUILD_DIR tests/test_costs.cmake"""
import re
import subprocess
import sys

ctest, build, costs = sys.argv[1:4]
text = open(costs, encoding="utf-8").read()
block = re.search(r"set\(opscope_test_costs(.*?)\)", text, re.S)
if not block:
    sys.exit(f"{costs}: no set(opscope_test_costs ...) list")
words = block.group(1).split()
if len(words) % 2:
    sys.exit(f"{costs}: the list is not name/cost pairs ({len(words)} words)")
pairs = list(zip(words[0::2], words[1::2]))
listed = subprocess.run([ctest, "-N"], cwd=build, stdout=subprocess.PIPE, check=True, text=True).stdout
known = set(re.findall(r"Test\s+#\d+: (\S+)", listed))
if len(known) < 10:
    sys.exit(f"`ctest -N` in {build} listed {len(known)} tests: not a built test tree")
unknown = [name for name, cost in pairs if name not in known]
bad_cost = [name for name, cost in pairs if not cost.isdigit()]
for name in unknown:
    print(f"{costs}: {name} is not a test of this build")
for name in bad_cost:
    print(f"{costs}: {name}'s cost is not a number of seconds")
if unknown or bad_cost:
    sys.exit(1)
print(f"{len(pairs)} costed tests, all known to ctest")
