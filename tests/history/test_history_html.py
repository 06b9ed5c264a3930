"""``history show --format html``: an index of every key, plots over dates, commit links.

The history is a real SQLite database recorded through the CLI from a real JMH result file
(``jmh-1.21-avgt-gc.json``, two keys), re-measured as twelve nightly runs whose level steps up
15% at the seventh, plus one key whose @Param value is markup, to prove the page escapes it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from perfproof.history.links import CommitLinks, check_commit_url
from perfproof.units import percent

RUNS = 12
STEP_RUN = 7  # 1-based: runs 7..12 are 15% slower
TEMPLATE = "https://git.example.test/org/repo/commit/{commit}"
NASTY = '<script>alert("x")</script>&'


def _commit(run: int) -> str:
    return f"{run:07x}" + "b" * 33


def _day(run: int) -> str:
    return f"2026-03-{run:02d}"


def _runs(fixture: Path, folder: Path) -> list[Path]:
    """The fixture as twelve runs: each scaled by ±0.5% noise, and by 1.15 from STEP_RUN."""
    rng = np.random.default_rng(7)
    entries = json.loads(fixture.read_text(encoding="utf-8"))
    paths = []
    for run in range(1, RUNS + 1):
        factor = (1.15 if run >= STEP_RUN else 1.0) * float(np.exp(rng.normal(0.0, 0.005)))
        doc = json.loads(json.dumps(entries))
        for entry in doc:
            pm = entry["primaryMetric"]
            pm["rawData"] = [[v * factor for v in fork] for fork in pm["rawData"]]
        odd = json.loads(json.dumps(entries[0]))
        odd["params"] = {"n": NASTY}
        doc.append(odd)
        path = folder / f"run{run:02d}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory, fixtures_dir_path: Path) -> Path:
    from perfproof.cli import main

    folder = tmp_path_factory.mktemp("histhtml")
    db = folder / "h.sqlite"
    for run, path in enumerate(_runs(fixtures_dir_path, folder), start=1):
        argv = ["history", "record", str(path), "--commit", _commit(run), "--branch", "main"]
        argv += ["--time", f"{_day(run)}T02:00:00Z", "--db", str(db)]
        assert main(argv) == 0
    return db


@pytest.fixture(scope="module")
def fixtures_dir_path() -> Path:
    return Path(__file__).resolve().parents[1] / "fixtures" / "jmh" / "jmh-1.21-avgt-gc.json"


def _page(run_cli, db: Path, out: Path, *extra: str) -> str:
    r = run_cli("history", "show", "--db", db, "--format", "html", "--out", out, *extra)
    assert r.code == 0, r.err
    return out.read_text(encoding="utf-8")


def _keys(run_cli, db: Path) -> list[dict]:
    r = run_cli("history", "show", "--db", db, "--format", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)["keys"]


def _index_rows(page: str) -> list[str]:
    table = page[page.index('<table class="index">') : page.index("</table>")]
    return re.findall(r'<tr id="row-key-\d+">(.*?)</tr>', table, re.S)


def test_index_lists_every_key_with_a_sparkline_latest_value_and_change(
    history: Path, run_cli, tmp_path: Path
) -> None:
    page = _page(run_cli, history, tmp_path / "h.html", "--commit-url", TEMPLATE)
    keys = _keys(run_cli, history)
    rows = _index_rows(page)
    assert len(keys) == 3 and len(rows) == len(keys)
    for key, row in zip(keys, rows, strict=True):
        assert key["benchmark"] in row
        (spark,) = re.findall(r'<svg class="spark".*?</svg>', row, re.S)
        (points,) = re.findall(r'<polyline points="([^"]+)"', spark)
        assert len(points.split()) == RUNS  # one vertex per recorded run
        anchor = re.search(r'<a href="#(key-\d+)">', row)
        assert anchor and f'<h2 id="{anchor.group(1)}">' in page  # links to the full plot
        assert '<svg role="img" aria-label="' + anchor.group(1) + '" class="plot"' in page
        first, last = key["points"][0]["estimate"], key["points"][-1]["estimate"]
        vs_first = re.findall(r'<td class="num">([^<]+)</td>', row)[2]
        assert vs_first == percent((last / first - 1) * 100)
    assert "n=16" in rows[0]
    stepped = [row for row in rows if "fx.Codes.sum" in row]
    assert re.findall(r'<td class="num">([^<]+)</td>', stepped[0])[2].startswith("+1")  # ≈ +15%


def test_change_points_are_the_ones_history_changes_finds(
    history: Path, run_cli, tmp_path: Path
) -> None:
    page = _page(run_cli, history, tmp_path / "h.html", "--commit-url", TEMPLATE)
    r = run_cli("history", "changes", "--db", history, "--format", "json")
    assert r.code == 0, r.err
    found = json.loads(r.out)["changes"]
    assert found and {c["commit"] for c in found} == {_commit(STEP_RUN)}
    rows = _index_rows(page)
    flagged = [row for row in rows if "regressed" in row]
    assert len(flagged) == len(found)
    link = TEMPLATE.replace("{commit}", _commit(STEP_RUN))
    assert all(f'href="{link}"' in row for row in flagged)
    # the sparkline marks the shift between the 6th and the 7th run
    assert all("<line " in row for row in flagged)


def test_plots_have_date_ticks(history: Path, run_cli, tmp_path: Path) -> None:
    page = _page(run_cli, history, tmp_path / "h.html")
    plots = re.findall(r'<svg role="img"[^>]*class="plot".*?</svg>', page, re.S)
    assert len(plots) == 3
    for plot in plots:
        ticks = re.findall(r">\s*(\d{4}-\d{2}-\d{2})\s*</text>", plot)
        assert len(ticks) >= 3, ticks
        assert all(_day(1) <= t <= "2026-03-13" for t in ticks)


def test_commit_url_links_table_rows_change_points_and_point_tooltips(
    history: Path, run_cli, tmp_path: Path
) -> None:
    page = _page(run_cli, history, tmp_path / "h.html", "--commit-url", TEMPLATE)
    hrefs = set(re.findall(r'<a class="commit" href="([^"]+)"', page))
    assert hrefs == {TEMPLATE.replace("{commit}", _commit(run)) for run in range(1, RUNS + 1)}
    plot_links = set(re.findall(r'<a xlink:href="([^"]+)"', page))
    assert hrefs <= plot_links  # each run's marker in the plots links to its commit
    tips = re.findall(r"<title>(commit [^<]+)</title>", page)
    assert len(tips) == 3 * RUNS
    assert any(_commit(STEP_RUN)[:12] in t and f"{_day(STEP_RUN)}T02:00:00Z" in t for t in tips)


def test_without_commit_url_commits_are_short_hashes_not_links(
    history: Path, run_cli, tmp_path: Path
) -> None:
    page = _page(run_cli, history, tmp_path / "h.html")
    assert '<a class="commit"' not in page and 'xlink:href="http' not in page
    assert f'<code title="{_commit(1)}">{_commit(1)[:12]}</code>' in page
    assert _commit(1) not in re.sub(r'title="[^"]*"', "", page)  # never the full hash as text


def test_database_text_is_escaped(history: Path, run_cli, tmp_path: Path) -> None:
    page = _page(run_cli, history, tmp_path / "h.html")
    assert "<script" not in page
    assert "n=&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;" in page


@pytest.mark.parametrize(
    "template, reason",
    [
        ("https://github.com/org/repo/commit/", "no {commit}"),
        ("https://github.com/org/repo/commit/{sha}", "no {commit}"),
        ("javascript:alert({commit})", "not an http(s) URL"),
        ("{commit}", "not an http(s) URL"),
    ],
)
def test_bad_commit_url_exits_2_naming_the_option_and_writes_nothing(
    history: Path, run_cli, tmp_path: Path, template: str, reason: str
) -> None:
    out = tmp_path / "h.html"
    r = run_cli(
        "history", "show", "--db", history, "--format", "html", "--out", out,
        "--commit-url", template,
    )  # fmt: skip
    assert r.code == 2
    (line,) = r.err.strip().splitlines()
    assert line.startswith("perfproof: error: --commit-url") and reason in line
    assert not out.exists()


def test_commit_url_needs_the_html_format(history: Path, run_cli) -> None:
    r = run_cli("history", "show", "--db", history, "--commit-url", TEMPLATE)
    assert r.code == 2 and "--commit-url: only with --format html" in r.err


def test_a_free_text_commit_cannot_leave_the_url_path() -> None:
    links = CommitLinks(check_commit_url(TEMPLATE))
    ref = links.ref('v1/../x?y#"z')
    assert ref is not None and ref.href is not None
    assert ref.href == TEMPLATE.replace("{commit}", "v1%2F..%2Fx%3Fy%23%22z")
    assert CommitLinks().ref("abc") == CommitLinks().ref("abc")
    assert CommitLinks().ref(None) is None


def test_changes_page_shares_the_index(history: Path, run_cli, tmp_path: Path) -> None:
    out = tmp_path / "c.html"
    r = run_cli("history", "changes", "--db", history, "--format", "html", "--out", out,
                "--commit-url", TEMPLATE)  # fmt: skip
    assert r.code == 0, r.err
    page = out.read_text(encoding="utf-8")
    assert len(_index_rows(page)) == 3 and page.count('<svg class="spark"') == 3
