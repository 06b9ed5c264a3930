"""The built distribution works on its own: the wheel installs into a fresh virtual
environment and runs from there, with the Java helper, templates and demo inside it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "jmh"

pytestmark = pytest.mark.slow


@pytest.fixture
def dist(built_wheel: Path) -> Path:
    return built_wheel


def test_twine_accepts_the_metadata(dist: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, dist.iterdir())],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_wheel_carries_the_java_helper_templates_and_demo(dist: Path) -> None:
    (wheel,) = dist.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "perfproof/profile/java/JfrCensus.java",
        "perfproof/report/templates/report.html.j2",
        "perfproof/profile/templates/flamegraph.html.j2",
        "perfproof/history/templates/history.html.j2",
        "perfproof/stats/sequential_levels.json",
        "perfproof/demo/sample/baseline/pom.xml",
        "perfproof/demo/sample/feature.patch",
        "perfproof/py.typed",
    ):
        assert needed in names, needed
    assert any(n.endswith("licenses/LICENSE") for n in names)


def test_the_wheel_runs_from_a_fresh_venv(wheel_venv: Path) -> None:
    py = wheel_venv / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run([str(py), "-c", "import perfproof; print(perfproof.__file__)"],
                           capture_output=True, text=True, check=True, env=env).stdout  # fmt: skip
    assert where.startswith(str(wheel_venv.parent)), where
    exe = wheel_venv / "perfproof"
    helped = subprocess.run([str(exe), "demo", "--help"], capture_output=True, text=True, env=env)
    assert helped.returncode == 0 and "demo" in helped.stdout, helped.stderr
    compared = subprocess.run(
        [str(exe), "compare", str(FIXTURES / "jmh-1.21-avgt-gc.json"),
         str(FIXTURES / "jmh-1.37-allmodes-gc.json"), "--format", "json"],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert compared.returncode == 0, compared.stderr
    assert json.loads(compared.stdout)["comparisons"]
