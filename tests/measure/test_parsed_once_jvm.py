"""A real ``ab`` run, build to report, reads each option's text once.

A budget, a shard and JMH options used to be parsed again by every layer that needed them
(the checks, the plan, the shard's cut, the scheduler, the rounds, the reach check); now the
door parses them into typed values the layers take. The parsers are counted while the CLI
runs (``parser_calls``), so a layer that parses again makes this fail.
"""

from __future__ import annotations

import pytest

TINY = "-wi 1 -w 100ms -i 2 -r 100ms"
pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(300)]


def test_an_ab_run_parses_budget_shard_and_jmh_options_once(
    ab_env, run_cli, parser_calls, tmp_path
) -> None:
    run_dir = tmp_path / "run"
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--bench", "ErrorReporterBench", "--max-rounds", "3", "--budget", "10m",
                  "--shard", "1/1", "--jmh-args", TINY, "--out", run_dir,
                  "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    assert (run_dir / "results.json").is_file()
    assert parser_calls[("parse_budget", repr(("10m",)))] == 1
    assert parser_calls[("parse_shard", repr(("1/1",)))] == 1
    assert parser_calls[("parse_jmh_args", repr((TINY,)))] == 1
    settings = {call: n for call, n in parser_calls.items() if call[0] == "parse_settings"}
    assert sum(settings.values()) == 1, settings
    assert {call: n for call, n in parser_calls.items() if n > 1} == {}
