#!/usr/bin/env python3
"""Drives `apocalypse serve`'s page in headless Chromium, as a person would.

Usage: apocalypse_page.py URL OUT_DIR

Speaks the W3C WebDriver protocol to the distribution's chromedriver with nothing but the
standard library. It loads the page, waits for the analysis of the start position, loads a
position with mixed strategies and checks that the board, both players' arrows and the value
are drawn; then plays: one move with the keyboard alone, one by clicking two squares, and a
short endgame to its end by clicking, and checks the result banner. Screenshots go to OUT_DIR:
analysis.png, finished.png and phone.png (the analysis at 390x844, which must not scroll
sideways). The editor is checked too: a piece dragged, one removed and one placed by keys.
Prints OK at the end; any failure prints why and exits 1 (screenshot failure.png).
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
KEYS = {"Enter": "\ue007", "ArrowUp": "\ue013", "ArrowDown": "\ue015", "Delete": "\ue017",
        "n": "n", "P": "P"}
MIXED = "1N3/3p1/1n3/P1p2/1Nn2 00 0 1"
ENDGAME = "p4/P1N2/5/5/4n 00 0 1"


class Failure(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """One chromedriver process and one session in it."""

    def __init__(self, profile):
        self.port = free_port()
        self.driver = subprocess.Popen(
            [CHROMEDRIVER, f"--port={self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 20
        while True:
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except (OSError, urllib.error.URLError):
                pass
            if time.time() > deadline:
                raise Failure("chromedriver did not start")
            time.sleep(0.1)
        capabilities = {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": FLAGS + [f"--user-data-dir={profile}", "--window-size=1280,1000"],
            },
        }
        reply = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = f"/session/{reply['sessionId']}"

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as error:
            detail = json.loads(error.read() or b"{}").get("value", {})
            raise Failure(f"webdriver {method} {path}: {detail.get('message', error)}") from None

    def do(self, method, path, body=None):
        return self.call(method, self.session + path, body)

    def open(self, url):
        self.do("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.do("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        return self.do("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css):
        self.do("POST", f"/element/{self.find(css)}/click", {})

    def type_into(self, css, text):
        element = self.find(css)
        self.do("POST", f"/element/{element}/clear", {})
        self.do("POST", f"/element/{element}/value", {"text": text})

    def keys(self, *names):
        actions = []
        for name in names:
            actions.append({"type": "keyDown", "value": KEYS[name]})
            actions.append({"type": "keyUp", "value": KEYS[name]})
        self.do("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def drag(self, css_from, css_to):
        start, end = self.find(css_from), self.find(css_to)
        self.do("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "origin": {ELEMENT: start}, "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "origin": {ELEMENT: end}, "x": 0, "y": 0, "duration": 300},
                {"type": "pointerUp", "button": 0},
            ],
        }]})
        self.do("DELETE", "/actions")

    def wait(self, condition, what, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.js(f"return Boolean({condition});"):
                return
            time.sleep(0.1)
        raise Failure(f"timed out waiting for {what}")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.do("GET", "/screenshot")))

    def resize(self, width, height):
        self.do("POST", "/window/rect", {"width": width, "height": height})

    def close(self):
        try:
            self.do("DELETE", "")
        except Failure:
            pass
        self.driver.terminate()
        try:
            self.driver.wait(10)
        except subprocess.TimeoutExpired:
            self.driver.kill()


IDLE = 'document.body.dataset.busy === "0"'


def count(browser, css):
    return browser.js(f"return document.querySelectorAll({json.dumps(css)}).length;")


def text(browser, css):
    return browser.js(f"return document.querySelector({json.dumps(css)}).textContent;")


def check_board(browser, pieces):
    squares = count(browser, "#board rect.square[data-square]")
    drawn = count(browser, "#layer-pieces .piece")
    if squares != 25:
        raise Failure(f"the board has {squares} squares, not 25")
    if drawn != pieces:
        raise Failure(f"the board shows {drawn} pieces, not {pieces}")


def analysis(browser, out):
    browser.wait(f'{IDLE} && document.querySelectorAll("#layer-arrows .arrow").length > 0',
                 "the start position's analysis")
    check_board(browser, 14)
    browser.type_into("#position", MIXED)
    browser.click("#load")
    browser.wait(f'{IDLE} && document.querySelector("#position").value === {json.dumps(MIXED)}'
                 ' && document.querySelectorAll("#layer-arrows .arrow.white").length > 1'
                 ' && document.querySelectorAll("#layer-arrows .arrow.black").length > 1',
                 "arrows of both players' mixed strategies")
    check_board(browser, 7)
    rows = count(browser, "#white-table tbody tr") + count(browser, "#black-table tbody tr")
    if rows < 4:
        raise Failure(f"the strategy tables have {rows} rows")
    value = text(browser, "#value-number")
    kind = text(browser, "#value-kind")
    if not value or value in ("…", "–") or not ("estimated at depth" in kind or "exact" in kind):
        raise Failure(f"no value shown: {value!r} {kind!r}")
    widths = browser.js('return [...document.querySelectorAll("#layer-arrows .arrow.white .shape")]'
                        '.map(p => p.getBBox().width * p.getBBox().height);')
    if len(set(round(w) for w in widths)) < 2:
        raise Failure("the arrows do not differ in width")
    browser.screenshot(os.path.join(out, "analysis.png"))
    print(f"analysis: value {value} ({kind}), {rows} strategy rows", flush=True)


def play(browser, out):
    browser.click("#tab-play")
    browser.click("#new-game")
    browser.wait(f'{IDLE} && document.querySelector("#position").value.startsWith("npppn/p3p/5/P3P/NPPPN")',
                 "a new game")
    # Keyboard alone: the cursor starts on c1; Enter picks the footman, up, Enter declares c1c2.
    browser.js('document.getElementById("board").focus();')
    browser.keys("Enter", "ArrowUp", "Enter")
    browser.wait(f'{IDLE} && document.querySelector("#reveal h3") !== null', "the first turn's reveal")
    if "c1c2" not in text(browser, "#reveal"):
        raise Failure("the keyboard move c1c2 was not declared: " + text(browser, "#reveal"))
    # The mouse: the horseman a1 to b3.
    browser.click('rect[data-square="a1"]')
    browser.click('rect[data-square="b3"]')
    browser.wait(f'{IDLE} && document.querySelector("#reveal h3").textContent.startsWith("Turn 2")',
                 "the second turn's reveal")
    reveal = text(browser, "#reveal")
    if "a1b3" not in reveal or "Engine" not in reveal:
        raise Failure("the second turn is not revealed: " + reveal)
    if count(browser, "#history li") < 2:
        raise Failure("the game record has fewer than two turns")
    # A short endgame to its end: the horseman c4 takes Black's last footman on a5.
    browser.type_into("#position", ENDGAME)
    browser.click("#load")
    browser.wait(f'{IDLE} && document.querySelector("#position").value === {json.dumps(ENDGAME)}'
                 ' && document.querySelector("#history").children.length === 0', "the endgame")
    check_board(browser, 4)
    browser.click('rect[data-square="c4"]')
    browser.click('rect[data-square="a5"]')
    browser.wait(f'{IDLE} && !document.querySelector("#banner").hidden', "the result banner")
    banner = text(browser, "#banner-title") + " / " + text(browser, "#banner-reason")
    if "White wins" not in banner or "no footmen left" not in banner.lower():
        raise Failure("wrong result banner: " + banner)
    if "1-0" not in text(browser, "#history"):
        raise Failure("the game record has no result")
    check_board(browser, 3)
    browser.screenshot(os.path.join(out, "finished.png"))
    print(f"finished game: {banner}", flush=True)


def edit(browser):
    browser.click("#tab-edit")
    browser.click("#edit-start")
    browser.wait(f'{IDLE} && document.querySelector("#position").value === "npppn/p3p/5/P3P/NPPPN 00 0 1"',
                 "the start position in the editor")
    # Drag the footman b1 to b3, then with the keyboard: up twice to b3, Delete, n (a Black horseman).
    browser.drag('rect[data-square="b1"]', 'rect[data-square="b3"]')
    browser.wait(f'{IDLE} && document.querySelector("#position").value === "npppn/p3p/1P3/P3P/N1PPN 00 0 1"',
                 "the dragged footman on b3")
    browser.js('document.getElementById("board").focus();')
    browser.keys("ArrowUp", "ArrowUp", "Delete")
    browser.wait(f'{IDLE} && document.querySelector("#position").value === "npppn/p3p/5/P3P/N1PPN 00 0 1"',
                 "b3 cleared by the keyboard")
    browser.keys("n")
    browser.wait(f'{IDLE} && document.querySelector("#position").value === "npppn/p3p/1n3/P3P/N1PPN 00 0 1"',
                 "a Black horseman placed on b3 by the keyboard")
    check_board(browser, 14)
    # A White footman on b5, its last rank: the server refuses it and the page keeps the
    # last good position, with the server's reason shown.
    browser.keys("ArrowUp", "ArrowUp", "P")
    browser.wait(f'{IDLE} && document.querySelector("#position-error").textContent.includes("last rank (b5)")',
                 "the refused edit explained")
    kept = browser.js('return document.querySelector("#position").value;')
    if kept != "npppn/p3p/1n3/P3P/N1PPN 00 0 1":
        raise Failure(f"a refused edit left the position {kept}")
    check_board(browser, 14)
    # Two edits sent before the first is answered both count.
    browser.keys("ArrowDown", "ArrowDown", "Delete", "P")
    browser.wait(f'{IDLE} && document.querySelector("#position").value === "npppn/p3p/1P3/P3P/N1PPN 00 0 1"',
                 "two quick edits on b3, both applied")
    error = browser.js('return document.querySelector("#position-error").textContent;')
    if error:
        raise Failure(f"an error left after a good edit: {error}")
    check_board(browser, 14)
    print("edit: drag and keyboard placement, a refused edit rolled back", flush=True)


def phone(browser, out):
    browser.click("#tab-analyse")
    browser.type_into("#position", MIXED)
    browser.click("#load")
    browser.resize(390, 844)
    browser.wait(f'{IDLE} && document.querySelectorAll("#layer-arrows .arrow").length > 0',
                 "the analysis on a phone-sized screen")
    overflow = browser.js("return document.documentElement.scrollWidth - window.innerWidth;")
    if overflow > 0:
        raise Failure(f"the page scrolls sideways by {overflow} px at 390 px")
    board = browser.js('return document.getElementById("board").getBoundingClientRect().width;')
    if board < 300:
        raise Failure(f"the board is only {board} px wide on a phone")
    browser.screenshot(os.path.join(out, "phone.png"))
    print(f"phone: board {board:.0f} px wide, no sideways scrolling", flush=True)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    url, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="apocalypse-chromium-")
    browser = None
    try:
        browser = Browser(profile)
        browser.open(url)
        analysis(browser, out)
        play(browser, out)
        edit(browser)
        phone(browser, out)
        print("OK", flush=True)
        return 0
    except Failure as failure:
        print(f"FAILED: {failure}", flush=True)
        if browser is not None:
            try:
                browser.screenshot(os.path.join(out, "failure.png"))
            except Failure:
                pass
        return 1
    finally:
        if browser is not None:
            browser.close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
