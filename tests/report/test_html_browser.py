"""The HTML report in a real headless browser: no requests leave the file, no console errors,
and the page renders to a non-blank screenshot.

The browser is Debian's chromium, driven over the DevTools protocol (a minimal WebSocket client
below, since the standard library has none). On CI, or as root with PERFPROOF_INSTALL_BROWSER=1,
a missing chromium is installed with apt-get; elsewhere the test is skipped with the reason.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import shutil
import socket
import struct
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from perfproof.errors import PerfproofError
from perfproof.process import Command, Watch, run
from perfproof.report import write_reports

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1200,1600",
    "--remote-debugging-port=0",
]


def _find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> str:
    found = _find_chromium()
    if found:
        return found
    on_ci = os.environ.get("CI", "").lower() == "true"
    allowed = on_ci or os.environ.get("PERFPROOF_INSTALL_BROWSER") == "1"
    if not (allowed and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")):
        pytest.skip(
            "chromium is not installed and cannot be installed here (needs root with apt-get, "
            "and CI=true or PERFPROOF_INSTALL_BROWSER=1); install it: apt-get install -y chromium"
        )
    log = tmp_path_factory.mktemp("apt") / "apt.log"
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    try:
        run(
            Command(["apt-get", "update"], env=env),
            Watch(log=log, timeout=600, check=True, capture=False),
        )
        run(
            Command(["apt-get", "install", "-y", "--no-install-recommends", "chromium"], env=env),
            Watch(log=log, timeout=900, check=True, capture=False),
        )
    except PerfproofError as exc:
        if on_ci:
            raise
        pytest.skip(f"installing chromium failed: {exc}")
    found = _find_chromium()
    assert found, f"apt-get installed chromium but it is not on PATH (log: {log})"
    return found


class WebSocket:
    """Just enough RFC 6455 for the DevTools protocol: masked text frames out, frames in."""

    def __init__(self, url: str) -> None:
        assert url.startswith("ws://")
        host_port, _, path = url[len("ws://") :].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            assert chunk, "DevTools closed the connection during the handshake"
            response += chunk
        head, _, self.buffer = response.partition(b"\r\n\r\n")
        assert b" 101 " in head.split(b"\r\n")[0], head

    def send(self, text: str) -> None:
        payload = text.encode()
        header = bytes([0x81])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("DevTools connection closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def recv(self) -> str:
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode in (0x1, 0x0):
                message += payload
                if b0 & 0x80:
                    return message.decode()
            elif opcode == 0x8:
                raise ConnectionError("DevTools closed the connection")


@dataclass
class PageLoad:
    """What happened while a page loaded."""

    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    screenshot: bytes = b""
    values: list[Any] = field(default_factory=list)
    """What each expression given to :func:`load_page` returned, in order."""


class DevTools:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my_id:
                assert "error" not in msg, msg
                return msg.get("result", {})
            self.events.append(msg)

    def wait_for(self, method: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == method for e in self.events):
            assert time.monotonic() < deadline, f"no {method} within {timeout}s"
            self.events.append(json.loads(self.ws.recv()))

    def drain(self, seconds: float) -> None:
        self.ws.sock.settimeout(seconds)
        try:
            while True:
                self.events.append(json.loads(self.ws.recv()))
        except TimeoutError:
            pass
        finally:
            self.ws.sock.settimeout(30)


def load_page(chromium: str, url: str, workdir: Path, evaluate: Sequence[str] = ()) -> PageLoad:
    """Open ``url`` in a fresh headless chromium and record requests, errors and a screenshot,
    then the value of each JavaScript expression in ``evaluate``, run in the page in order."""
    profile = workdir / "profile"
    profile.mkdir(parents=True, exist_ok=True)
    argv = [chromium, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
    browser = threading.Thread(
        target=run,
        args=(Command(argv), Watch(log=workdir / "chromium.log", timeout=90, capture=False)),
        daemon=True,
    )
    browser.start()
    port_file = profile / "DevToolsActivePort"
    deadline = time.monotonic() + 30
    while not (port_file.is_file() and port_file.read_text().strip()):
        assert time.monotonic() < deadline, (workdir / "chromium.log").read_text(errors="replace")
        time.sleep(0.05)
    port = int(port_file.read_text().split()[0])
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as resp:
        targets = json.load(resp)
    page = next(t for t in targets if t.get("type") == "page")
    tools = DevTools(WebSocket(page["webSocketDebuggerUrl"]))
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            tools.call(f"{domain}.enable")
        tools.call("Page.navigate", url=url)
        tools.wait_for("Page.loadEventFired", 30)
        tools.drain(0.5)
        shot = tools.call("Page.captureScreenshot", format="png")
        result = PageLoad(screenshot=base64.b64decode(shot["data"]))
        for expression in evaluate:
            answer = tools.call("Runtime.evaluate", expression=expression, returnByValue=True)
            assert "exceptionDetails" not in answer, answer
            result.values.append(answer["result"].get("value"))
        for e in tools.events:
            method, p = e.get("method"), e.get("params", {})
            if method == "Network.requestWillBeSent":
                result.requests.append(p["request"]["url"])
            elif method == "Network.loadingFailed":
                result.failed.append(p.get("errorText", "?"))
            elif method == "Runtime.exceptionThrown":
                result.console_errors.append(json.dumps(p.get("exceptionDetails", {}))[:300])
            elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                result.console_errors.append(json.dumps(p.get("args", []))[:300])
            elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                result.console_errors.append(p["entry"].get("text", "?"))
        with contextlib.suppress(ConnectionError):
            tools.call("Browser.close")
    finally:
        tools.ws.sock.close()
        browser.join(timeout=30)
    return result


def _pixel_spread(png: bytes) -> tuple[float, int]:
    from PIL import Image, ImageStat

    image = Image.open(io.BytesIO(png)).convert("L")
    colours = sum(1 for count in image.histogram() if count)
    return ImageStat.Stat(image).var[0], colours


@pytest.mark.slow
def test_html_report_loads_offline_without_errors_and_renders(
    chromium: str, make_run_folder: Callable[[str], Path], tmp_path: Path
) -> None:
    run_dir = make_run_folder("ab")
    html = next(p for p in write_reports(run_dir) if p.suffix == ".html")
    page = load_page(chromium, html.as_uri(), tmp_path)
    assert page.requests == [html.as_uri()], page.requests
    assert page.failed == []
    assert page.console_errors == []
    variance, colours = _pixel_spread(page.screenshot)
    assert variance > 200 and colours > 20, (variance, colours)
    if os.environ.get("PERFPROOF_SCREENSHOT"):
        Path(os.environ["PERFPROOF_SCREENSHOT"]).write_bytes(page.screenshot)


@pytest.mark.slow
def test_browser_harness_sees_failed_requests_and_console_errors(
    chromium: str, tmp_path: Path
) -> None:
    """The checks above can fail: a page that fetches from the network and logs an error."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<html><body><img src="http://perfproof.invalid/x.png">'
        '<script>console.error("broken")</script></body></html>'
    )
    page = load_page(chromium, bad.as_uri(), tmp_path)
    assert any(u.startswith("http://perfproof.invalid") for u in page.requests)
    assert page.failed
    assert any("broken" in e for e in page.console_errors)
    variance, _ = _pixel_spread(page.screenshot)
    assert variance < 50


RUNS = Path(__file__).parents[1] / "fixtures" / "runs"

VISIBLE_ROWS = (
    "Array.from(document.querySelectorAll('table.results tbody tr'))"
    ".filter(r => !r.hidden).map(r => r.cells[0].textContent.trim())"
)


@pytest.mark.slow
def test_results_tables_sort_and_filter_in_the_browser(chromium: str, tmp_path: Path) -> None:
    """The page's script on a real report of 43 keys: a click on the Δ% header sorts the rows
    by the change (ascending, then descending on a second click), the text filter keeps the
    rows whose @Param matches, and the verdict filter those with that verdict."""
    import json as _json
    import shutil as _shutil

    run_dir = tmp_path / "run"
    _shutil.copytree(RUNS / "wild-43-keys-2-forks-past-999", run_dir)
    html = next(p for p in write_reports(run_dir) if p.suffix == ".html")
    deltas = {
        dict(c["params"])["n"]: c["delta_pct"]
        for c in _json.loads((run_dir / "results.json").read_text())["comparisons"]
        if c["metric"] == "primary"
    }
    click_delta = (
        "(() => { const th = Array.from(document.querySelectorAll('table.results th'))"
        ".find(h => h.textContent.startsWith('Δ%')); th.click();"
        " return th.getAttribute('aria-sort'); })()"
    )
    set_text = (
        "(() => { const i = document.getElementById('filter-text'); i.value = 'n=4';"
        " i.dispatchEvent(new Event('input'));"
        " return document.getElementById('filter-count').textContent; })()"
    )
    set_verdict = (
        "(() => { const s = document.getElementById('filter-verdict'); s.value = '%s';"
        " s.dispatchEvent(new Event('change')); return [document.getElementById('filter-count')"
        ".textContent, document.querySelector('table.results').hidden]; })()"
    )
    page = load_page(
        chromium,
        html.as_uri(),
        tmp_path,
        evaluate=[
            "document.getElementById('filter').hidden",
            VISIBLE_ROWS,
            click_delta,
            VISIBLE_ROWS,
            click_delta,
            VISIBLE_ROWS,
            set_text,
            VISIBLE_ROWS,
            set_verdict % "inconclusive",
            set_verdict % "improved",
        ],
    )
    assert page.console_errors == []
    hidden, before, asc, up, desc, down, text_count, matched, kept, none = page.values
    assert hidden is False
    assert sorted(before, key=int) == before and len(before) == 43
    assert (asc, desc) == ("ascending", "descending")
    assert up == sorted(deltas, key=lambda n: deltas[n])
    assert down == up[::-1]
    assert sorted(matched) == ["4", "40", "41", "42", "43"]
    assert text_count == "5 of 43 rows shown"
    # every key of this run is inconclusive: the verdict filter keeps the five, and with
    # "improved" nothing is left, so the table (and its heading) is hidden
    assert kept == ["5 of 43 rows shown", False]
    assert none == ["0 of 43 rows shown", True]
