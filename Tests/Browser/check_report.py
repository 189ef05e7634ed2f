#!/usr/bin/env python3
"""Renders an HTML report in headless Chromium and fails when a person would find it broken.

Usage: check_report.py REPORT.html [--screenshots DIR] [--chromium PATH]

Talks to Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe; Python's standard
library only). At a desktop width (1280 px) and a phone's (400 px) it fails when:
  - the page logs a console error or throws (or Chromium logs an error for it);
  - the page asks for anything but the file itself (a report must be self-contained);
  - the screenshot is all white (a blank page), or the page holds next to no text;
  - text overflows its box: an element whose content is wider than it while its overflow is visible
    or hidden, the page wider than the window, or an SVG label outside its chart.
Screenshots go to --screenshots DIR (desktop.png, phone.png) for a person to look at.
"""
import argparse
import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

OVERFLOW_SCRIPT = r"""
(() => {
  const problems = [];
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (el.className && typeof el.className === 'string') s += '.' + el.className.trim().split(/\s+/).join('.');
    const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
    return s + (text ? ' "' + text + '"' : '');
  };
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    problems.push('the page is ' + root.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.display === 'inline') continue;
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    if (!scrolls && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      problems.push(describe(el) + ': content ' + el.scrollWidth + ' px wide in a ' + el.clientWidth + ' px box');
    }
  }
  for (const svg of document.querySelectorAll('svg.chart')) {
    const vb = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.width === 0) continue;
      if (b.x < vb.x - 1 || b.y < vb.y - 1 || b.x + b.width > vb.x + vb.width + 1 || b.y + b.height > vb.y + vb.height + 1) {
        problems.push('SVG label "' + t.textContent + '" lies outside its chart (' + svg.getAttribute('aria-label') + ')');
      }
    }
  }
  return {problems: problems, textLength: document.body.innerText.trim().length,
          height: Math.ceil(root.scrollHeight)};
})()
"""


class Chromium:
    """A headless Chromium driven over --remote-debugging-pipe (fd 3: commands in, fd 4: replies out)."""

    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="fieldtest-chromium-")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def wire():
            # Move both ends clear of 3 and 4 first: either may already be 3 or 4 here.
            high_r, high_w = os.dup2(to_child_r, 100), os.dup2(from_child_w, 101)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise TimeoutError(method)

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method, timeout=60):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                del self.events[i]
                return e
        while time.time() < deadline:
            e = self.read()
            if e.get("method") == method:
                return e
            self.events.append(e)
        raise TimeoutError(method)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def png_pixels_all_white(data):
    """Whether every pixel of an 8-bit RGB or RGBA PNG is white (PNG filters undone per RFC 2083)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "expects an 8-bit RGB or RGBA PNG"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + up) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif filter_type == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
        for x in range(width):
            if any(line[x * channels + c] != 0xFF for c in range(3)):
                return False
        previous = line
    return True


def check(binary, report, shots):
    url = "file://" + os.path.abspath(report)
    failures = []
    browser = Chromium(binary)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(domain + ".enable", session=session)
        for name, width in (("desktop", 1280), ("phone", 400)):
            browser.events.clear()
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
                         session=session)
            browser.send("Page.navigate", {"url": url}, session=session)
            browser.wait_for("Page.loadEventFired")
            result = browser.send("Runtime.evaluate", {"expression": OVERFLOW_SCRIPT, "returnByValue": True},
                                  session=session)["result"]["value"]
            for p in result["problems"][:20]:
                failures.append(f"{name} ({width} px): overflow: {p}")
            if result["textLength"] < 200:
                failures.append(f"{name}: the page holds only {result['textLength']} characters of text")
            height = min(result["height"], 16000)
            shot = browser.send("Page.captureScreenshot",
                                {"format": "png", "captureBeyondViewport": True,
                                 "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
                                session=session, timeout=120)
            png = base64.b64decode(shot["data"])
            if shots:
                with open(os.path.join(shots, name + ".png"), "wb") as f:
                    f.write(png)
            # Only the first screen is decoded: a blank page is blank there too, and it keeps the check fast.
            first = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
            if png_pixels_all_white(base64.b64decode(first["data"])):
                failures.append(f"{name}: the screenshot is all white")
            for e in browser.events:
                method, params = e.get("method"), e.get("params", {})
                if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                    failures.append(f"{name}: console error: {params.get('args')}")
                elif method == "Runtime.exceptionThrown":
                    failures.append(f"{name}: exception: {params.get('exceptionDetails', {}).get('text')}")
                elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                    failures.append(f"{name}: logged error: {params['entry'].get('text')}")
                elif method == "Network.requestWillBeSent":
                    requested = params.get("request", {}).get("url", "")
                    if requested != url and not requested.startswith("data:"):
                        failures.append(f"{name}: the page requests {requested}")
    finally:
        browser.close()
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--screenshots", help="folder for desktop.png and phone.png")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = parser.parse_args()
    if not args.chromium:
        print("check_report.py: chromium not found; install Debian's chromium package", file=sys.stderr)
        return 2
    if not os.path.isfile(args.report):
        print(f"check_report.py: {args.report}: no such file", file=sys.stderr)
        return 2
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    failures = check(args.chromium, args.report, args.screenshots)
    for f in failures:
        print("FAIL " + f)
    print(f"checked {args.report} at 1280 and 400 px")
    print(f"browser: {0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
