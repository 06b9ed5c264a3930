"""JFR's own recorder is not the program: its allocation samples stay out of the census."""

from perfproof.profile.census import census
from perfproof.profile.jfr import _Reader


def _read(lines: list[str]):
    reader = _Reader()
    for line in lines:
        reader.line(line)
    return reader.profiles


def test_recorder_allocation_is_left_out_and_reported():
    frames = [
        "jdk.jfr.internal.dcmd.AbstractDCmd.execute",
        "java.util.concurrent.ConcurrentHashMap.initTable",
        "java.util.concurrent.ConcurrentHashMap$Node[]",
        "com.acme.Main.main",
        "com.acme.Codec.encode",
        "[B",
    ]
    lines = ["R\t0\tfork-1.jfr", *(f"N\t{i}\t{f}" for i, f in enumerate(frames))]
    # the recorder's first sample stands for the whole start-up: 20 MB against 3 KB of work
    lines += ["A\tS\t20000000\t1\t2\t0,1", "A\tS\t3000\t3\t5\t3,4", "E\t"]
    (profile,) = _read(lines)
    assert profile.alloc == {(("com.acme.Main.main", "com.acme.Codec.encode"), "byte[]"): 3000}
    assert profile.recorder_alloc_bytes == 20000000
    c = census([profile, profile], focus=("com.acme",))
    assert c.alloc_bytes == 6000 and c.alloc[0].share == 1.0
    assert any("38.1 MiB sampled in JFR's own recorder" in w for w in c.warnings)
