"""Reach from a recording, judged on recordings of known content (collapsed stacks): a sample
in the changed code reaches; a baseline of enough samples with none there is shown not to run
it; fewer samples leave the static words as they were, saying why."""

from __future__ import annotations

from pathlib import Path

from perfproof.measure.plan import parse_jmh_args
from perfproof.model.documents.prove_reach import bench_reach
from perfproof.model.reach import Reach
from perfproof.pipeline.reach.recorded import MIN_SAMPLES, judged

BENCH = "acme.bench.CodecBench.write"
ROOT = "acme.bench.CodecBench.write;acme.Codec.write"
FRAMES = frozenset({"acme.Codec.writeUnscaledLong"})


def _recording(folder: Path, name: str, inside: int, elsewhere: int) -> Path:
    path = folder / "jfr" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    if inside:
        lines.append(f"{ROOT};acme.Codec.writeUnscaledLong {inside}")
    if elsewhere:
        lines.append(f"{ROOT};acme.Codec.writeScale {elsewhere}")
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_a_recording_that_runs_the_change_reaches_it(tmp_path: Path) -> None:
    static = bench_reach(BENCH, {}, (), depth=6)
    files = {"base": [_recording(tmp_path, "b.collapsed", 37, 900)]}
    found = judged(static, files, FRAMES, None, tmp_path / "jfr")
    assert found.kind is Reach.RECORDED and found.reaches
    assert "runs the changed code" in found.why and "of 937 CPU samples" in found.why


def test_enough_samples_and_none_in_the_change_is_shown_not_to_run(tmp_path: Path) -> None:
    static = bench_reach(BENCH, {}, (), depth=6)
    files = {
        "base": [_recording(tmp_path, "b.collapsed", 0, 412)],
        "head": [_recording(tmp_path, "h.collapsed", 0, 400)],
    }
    found = judged(static, files, FRAMES, None, tmp_path / "jfr")
    assert found.kind is Reach.NOT_RECORDED and not found.reaches
    assert "412 CPU samples and none in the changed code" in found.why
    assert "at 95% confidence" in found.why and "noise" not in found.why


def test_too_few_samples_say_nothing_more(tmp_path: Path) -> None:
    static = bench_reach(BENCH, {}, (), depth=6)
    few = {"base": [_recording(tmp_path, "b.collapsed", 0, MIN_SAMPLES - 1)]}
    found = judged(static, few, FRAMES, None, tmp_path / "jfr")
    assert found.kind is Reach.NO_STATIC_PATH
    assert found.why.startswith(static.why) and f"it takes {MIN_SAMPLES}" in found.why
    none = judged(static, {}, FRAMES, None, tmp_path / "jfr")
    assert none.kind is Reach.NO_STATIC_PATH and "no usable recording" in none.why
    # the head's recording alone running the change is enough to reach (an added helper)
    head = {"base": few["base"], "head": [_recording(tmp_path, "h.collapsed", 3, 40)]}
    assert judged(static, head, FRAMES, None, tmp_path / "jfr").kind is Reach.RECORDED


def test_one_fork_a_side_replaces_the_users_fork_count() -> None:
    one = parse_jmh_args("-f 3 -wi 1 -p size=16,1024").with_forks(1)
    assert one.text == "-wi 1 -p size=16,1024 -f 1" and one.settings.forks == 1
    assert one.options[one.options.index("-f") + 1] == "1" and one.options.count("-f") == 1
    assert one.options == parse_jmh_args(one.text).options
    assert parse_jmh_args(None).with_forks(1).text == "-f 1"
    from perfproof.pipeline.reach.recorded import SHARE_CONFIDENCE, SHARE_SEEN

    def missed(n: int) -> float:  # the chance a share of SHARE_SEEN leaves no sample in n
        return (1 - SHARE_SEEN) ** n

    assert missed(MIN_SAMPLES) <= 1 - SHARE_CONFIDENCE < missed(MIN_SAMPLES - 1)
