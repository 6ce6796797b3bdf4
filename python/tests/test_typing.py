"""The package's types: `mypy --strict` passes on a typed example that uses the API (and so on the
package, which ships `py.typed`), and `stubtest` finds the stubs of the Rust module true to it."""

from __future__ import annotations

import subprocess
import sys
import tempfile

from test_api import ROOT


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    # Run from a temporary folder: stubtest ignores MYPY_CACHE_DIR and writes `.mypy_cache` where it runs,
    # and the tests write nothing in the clone.
    with tempfile.TemporaryDirectory() as scratch:
        return subprocess.run([sys.executable, "-m", *args], cwd=scratch, capture_output=True, text=True)


def test_mypy_strict_passes_on_the_typed_example() -> None:
    out = mypy("mypy", "--strict", "--no-incremental", str(ROOT / "examples" / "designer.py"))
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_stubs_match_the_rust_module() -> None:
    out = mypy("mypy.stubtest", "intercept_sim._native")
    assert out.returncode == 0, out.stdout + out.stderr
