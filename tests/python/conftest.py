"""Shared fixtures of the Python module's tests. ctest runs them with PYTHONPATH at the
build tree's python/ folder and OPSCOPE_BINARY naming the binary built beside it, so the
module is compared with the command line of the same build."""
import json
import os
import subprocess

import pytest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(SOURCE, "resources", "sample", "sample.pt.trace.json.gz")
HTA_DATA = os.path.join(SOURCE, "tests", "data", "hta")
SHARED_TRACES = os.path.join(os.path.dirname(SOURCE), "shared", "traces")


def binary():
    path = os.environ.get("OPSCOPE_BINARY")
    if not path or not os.path.exists(path):
        pytest.skip("OPSCOPE_BINARY does not name the opscope binary (ctest sets it)")
    return path


def binary_env():
    """The environment for the binary: under the sanitizer build the tests' python3 has
    the ASan runtime preloaded, which the binary (linked with its own) must not get."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def run_binary(*args, **kwargs):
    """`opscope ARGS` as a finished process (stdout and stderr captured)."""
    return subprocess.run([binary(), *args], capture_output=True, env=binary_env(), **kwargs)


def run_json(*args):
    """The binary's JSON output for `opscope ARGS`."""
    out = run_binary(*args)
    if out.returncode != 0:
        raise AssertionError(f"opscope {' '.join(args)} exited {out.returncode}: {out.stderr.decode()[-500:]}")
    return json.loads(out.stdout)


def shared(name):
    """A trace of ../shared/traces, or a skip when that folder is absent."""
    path = os.path.join(SHARED_TRACES, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is not here (../shared/traces is optional)")
    return path
