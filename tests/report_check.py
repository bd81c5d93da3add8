#!/usr/bin/env python3
"""report_check.py: checks one `clustersim report` page in headless Chromium.

Usage: report_check.py CHROMIUM PAGE.html [--json FILE]... [--sha PATH]...
                       [--date TEXT] [--version TEXT] [--width PX]

Renders a copy of the page with a small script added (the page itself has
none) at an A4 width (794 CSS px = 210 mm at 96 px/in) with --dump-dom,
and fails when:
  - the page does not render (no dumped DOM, no <h1>, no summary paragraph);
  - any element's box reaches past the window's right edge, or any table
    cell or block scrolls horizontally (its content wider than itself), or
    the document is wider than the window;
  - a figure of the summary (a span with data-json=PATH) is not the value
    at PATH in the command's JSON (--json, one per document: data-doc
    picks which), exactly in data-value, and in its printed text within
    half a unit of its last printed digit; a span with data-minus=PATH2
    holds A - B (and (A - B) / B with data-ratio);
  - an input's SHA-256 (--sha PATH) is not on the page, or the date or the
    version (--date, --version) are not.
Prints what it checked; exit 0 when all passed, 1 otherwise.
"""
import hashlib
import html.parser
import json
import math
import os
import re
import subprocess
import sys
import tempfile

PROBE = """
<script>
window.addEventListener('load', function () {
  var W = window.innerWidth, bad = [];
  var all = document.body.getElementsByTagName('*');
  for (var i = 0; i < all.length; i++) {
    var e = all[i], r = e.getBoundingClientRect();
    var name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
               (typeof e.className === 'string' && e.className ? '.' + e.className : '');
    if (r.width > 0 && r.right > W + 0.5)
      bad.push(name + ' reaches ' + Math.round(r.right) + ' px of ' + W + ': ' +
               (e.textContent || '').slice(0, 60));
    var t = e.tagName;
    if ((t === 'DIV' || t === 'TD' || t === 'TH' || t === 'P' || t === 'TABLE' || t === 'FIGURE') &&
        e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
      bad.push(name + ' scrolls: content ' + e.scrollWidth + ' px in ' + e.clientWidth + ' px: ' +
               (e.textContent || '').slice(0, 60));
  }
  var dw = document.documentElement.scrollWidth;
  if (dw > W) bad.push('document is ' + dw + ' px wide in a ' + W + ' px window');
  var p = document.createElement('pre');
  p.id = 'cs-probe';
  p.style.whiteSpace = 'pre-wrap';
  p.style.wordBreak = 'break-all';
  p.textContent = JSON.stringify({width: W, n: bad.length, bad: bad.slice(0, 25)});
  document.body.appendChild(p);
});
</script>
"""


class Page(html.parser.HTMLParser):
    """Collects the summary's spans, the probe's text and the headings."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # open elements: (tag, attrs)
        self.spans = []          # [attrs, text, doc]
        self.cur = None
        self.probe = None
        self.in_probe = False
        self.h1 = False
        self.summary = False
        self.text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("br", "img", "meta", "link", "input", "hr"):
            return
        self.stack.append((tag, a))
        if tag == "h1":
            self.h1 = True
        if a.get("id") == "summary":
            self.summary = True
        if tag == "pre" and a.get("id") == "cs-probe":
            self.in_probe = True
            self.probe = ""
        if tag == "span" and "data-json" in a and any(x[1].get("id") == "summary" for x in self.stack):
            doc = next((x[1]["data-doc"] for x in reversed(self.stack) if "data-doc" in x[1]), None)
            self.cur = [a, "", doc]
            self.spans.append(self.cur)

    def handle_endtag(self, tag):
        while self.stack:
            t, a = self.stack.pop()
            if t == "span" and "data-json" in a:
                self.cur = None
            if t == "pre" and a.get("id") == "cs-probe":
                self.in_probe = False
            if t == tag:
                break

    def handle_data(self, data):
        self.text.append(data)
        if self.cur is not None:
            self.cur[1] += data
        if self.in_probe:
            self.probe += data


def at(doc, path):
    """The value at a path like tco.options[0].total_usd (KeyError if absent)."""
    v = doc
    for key, idx in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        v = v[int(idx)] if idx else v[key]
    return v


UNIT_S = {"days": 86400.0, "h": 3600.0, "min": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6}
UNIT_B = {"B": 1.0, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15, "EB": 1e18}


def parse_text(text, unit):
    """(value, half of the last printed digit) of a printed figure."""
    t = text.strip().replace(",", "")
    m = re.fullmatch(r"(-?)\$?(-?\d+(?:\.(\d+))?)\s*(%|[a-zA-Z]+)?", t)
    if not m:
        raise ValueError("cannot read %r as a figure" % text)
    num = float(m.group(2)) * (-1 if m.group(1) else 1)
    dec = len(m.group(3) or "")
    half = 0.5 * 10 ** -dec
    suf = m.group(4) or ""
    scale = 1.0
    if unit == "pct":
        if suf != "%":
            raise ValueError("%r: expected a percentage" % text)
        scale = 0.01
    elif unit == "s":
        if suf not in UNIT_S:
            raise ValueError("%r: expected a duration" % text)
        scale = UNIT_S[suf]
    elif unit == "bytes":
        if suf not in UNIT_B:
            raise ValueError("%r: expected bytes" % text)
        scale = UNIT_B[suf]
    elif unit == "usd":
        if "$" not in text:
            raise ValueError("%r: expected dollars" % text)
    elif suf:
        raise ValueError("%r: unexpected unit %r" % (text, suf))
    return num * scale, half * scale


def main(argv):
    chrome, page = argv[1], argv[2]
    jsons, shas, date, version, width = [], [], None, None, 794
    i = 3
    while i < len(argv):
        k, v = argv[i], argv[i + 1]
        if k == "--json":
            jsons.append(json.load(open(v)))
        elif k == "--sha":
            shas.append(v)
        elif k == "--date":
            date = v
        elif k == "--version":
            version = v
        elif k == "--width":
            width = int(v)
        i += 2
    name = os.path.basename(page)
    src = open(page, encoding="utf-8").read()
    fails = []
    if re.search(r"<script", src, re.I):
        fails.append("the page has a script (it must be static)")
    if re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", src, re.I):
        fails.append("the page loads an external resource")
    probe_src = src.replace("</body>", PROBE + "</body>")
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "page.html")
        open(copy, "w", encoding="utf-8").write(probe_src)
        r = subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update",
                            "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + tmp + "/prof",
                            "--window-size=%d,1123" % width, "--dump-dom", "file://" + copy],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    dom = r.stdout.decode("utf-8", "replace")
    p = Page()
    p.feed(dom)
    if r.returncode != 0 or not dom.strip():
        fails.append("chromium rendered nothing (exit %d)" % r.returncode)
    if not p.h1:
        fails.append("no <h1> in the rendered page")
    if not p.summary:
        fails.append("no summary paragraph (id=summary)")
    if p.probe is None:
        fails.append("the overflow probe did not run")
    else:
        pr = json.loads(p.probe)
        if abs(pr["width"] - width) > 20:
            fails.append("window %d px wide, asked for %d" % (pr["width"], width))
        for b in pr["bad"]:
            fails.append("overflow at %d px: %s" % (pr["width"], b))
        print("report_check: %s: %d px wide window, %d elements past its edge or scrolling"
              % (name, pr["width"], pr["n"]))
    checked = 0
    for a, text, doc in p.spans:
        path = a["data-json"]
        d = jsons[int(doc)] if doc is not None and jsons else (jsons[0] if jsons else None)
        if d is None:
            continue
        try:
            v = at(d, path)
            if "data-minus" in a:
                b = at(d, a["data-minus"])
                v = (v - b) / b if a.get("data-ratio") else v - b
        except (KeyError, IndexError, TypeError) as e:
            fails.append("summary figure %r: no such value in the JSON (%s)" % (path, e))
            continue
        shown = a.get("data-value")
        if v is None:
            if shown != "null" or text.strip() != "n/a":
                fails.append("summary figure %s: JSON null, page %r / %r" % (path, shown, text))
            checked += 1
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            fails.append("summary figure %s: JSON %r is not a number" % (path, v))
            continue
        if float(shown) != float(v) and not math.isclose(float(shown), float(v), rel_tol=1e-12):
            fails.append("summary figure %s: data-value %s, JSON %r" % (path, shown, v))
        try:
            got, half = parse_text(text, a.get("data-unit", "num"))
            if abs(got - v) > half * 1.0000001 + 1e-12 * abs(v):
                fails.append("summary figure %s: printed %r (%g), JSON %r" % (path, text, got, v))
        except ValueError as e:
            fails.append("summary figure %s: %s" % (path, e))
        checked += 1
    print("report_check: %s: %d summary figures compared with the JSON" % (name, checked))
    if jsons and checked < 3:
        fails.append("only %d figures in the summary (expected 3 or more)" % checked)
    body = "".join(p.text)
    for f in shas:
        h = hashlib.sha256(open(f, "rb").read()).hexdigest()
        if h not in body:
            fails.append("the SHA-256 of %s (%s) is not on the page" % (f, h))
    if date and date not in body:
        fails.append("the date %r is not on the page" % date)
    if version and ("version " + version) not in body:
        fails.append("the version %r is not on the page" % version)
    if re.search(r"\d\.?\d*e[+-]\d", body.replace("\n", " ")):
        m = re.search(r"\S*\d\.?\d*e[+-]\d\S*", body)
        fails.append("exponent notation on the page: %r" % (m.group(0) if m else "?"))
    for f in fails:
        print("report_check: %s: FAIL: %s" % (name, f))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
