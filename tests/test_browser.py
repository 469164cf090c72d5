"""`check --format html` and `diff --format html` in a real browser: the system's headless Chromium
(Debian packages chromium and chromium-driver; .ci/run installs them) driven by Selenium with the
driver's path given, so Selenium Manager never downloads anything. The page must load with no
console message, need no network, and show the illegal action. Screenshots are saved under the
test's temporary directory, or under $YGO_TIMING_SCREENSHOTS when set (for CI artifacts)."""
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from ygo_timing.checking.check import check_play
from ygo_timing.cli.main import main
from ygo_timing.inputs.files import builtin_examples
from ygo_timing.inputs.play import load
from ygo_timing.output import diff_html

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"

# .ci/run installs the browser and sets YGO_TIMING_REQUIRE_BROWSER: there a missing one fails
REQUIRED = bool(os.environ.get("YGO_TIMING_REQUIRE_BROWSER"))
MISSING = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
if MISSING:
    why = (f"no headless browser: {' and '.join(MISSING)} missing "
           "(apt-get install chromium chromium-driver; .ci/run does)")
    if REQUIRED:
        pytest.fail(why, pytrace=False)
    pytest.skip(why, allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra)")
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


@pytest.fixture(scope="module")
def browser():
    os.environ.setdefault("SE_OFFLINE", "true")   # Selenium Manager, were it ever asked: no network
    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--disable-extensions", "--no-first-run"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    yield driver
    driver.quit()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("YGO_TIMING_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser, path: Path, fragment: str = ""):
    browser.get(path.as_uri() + fragment)
    # get() returns once the page loads; a large page on a loaded machine may still be parsing
    WebDriverWait(browser, 60).until(lambda b: b.execute_script("return document.readyState") == "complete")
    log = browser.get_log("browser")
    assert log == [], f"console messages: {log}"
    # nothing was fetched: the page is one file
    fetched = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert fetched == [], f"the page loaded resources: {fetched}"


def check_html(tmp_path, *args) -> Path:
    r = CliRunner().invoke(main, ["check", "--format", "html", *map(str, args)])
    assert r.exit_code in (0, 1), r.output
    out = tmp_path / "report.html"
    out.write_text(r.output, "utf-8")
    return out


def test_a_fixture_report_shows_its_illegal_action(browser, tmp_path, shots):
    page = check_html(tmp_path, FIXTURES / "examples" / "ex1-illegal.play")
    open_page(browser, page, "#p1-illegal")
    row = browser.find_element(By.ID, "p1-illegal")
    assert row.is_displayed() and "ILLEGAL" in row.text and 'chain A "Rising Energy" target "Dark Magician" cost K' in row.text
    why = row.find_element(By.XPATH, "following-sibling::tr[1]")
    assert why.is_displayed() and "T4" in why.text and "Because:" in why.text
    # the options are folded: a summary shows, the table does not until it is opened
    fold = browser.find_elements(By.CSS_SELECTOR, "#p1 details.options")[0]
    table = fold.find_element(By.TAG_NAME, "table")
    assert fold.is_displayed() and not table.is_displayed()
    fold.find_element(By.TAG_NAME, "summary").click()
    assert table.is_displayed()
    fold.find_element(By.TAG_NAME, "summary").click()   # folded again, for the picture
    # a rule ID leads to its statement and sources
    browser.find_element(By.CSS_SELECTOR, "#p1-illegal + tr a.rule").click()
    assert browser.execute_script("return location.hash").startswith("#rule-")
    # the picture in docs/guide.md: the timeline down to the illegal action and why
    browser.set_window_size(1200, 1100)
    browser.execute_script("document.querySelector('#p1 table.timeline').scrollIntoView()")
    assert browser.find_element(By.CSS_SELECTOR, "#p1 .timeline-wrap").screenshot(str(shots / "ex1-illegal.png"))
    assert browser.save_screenshot(str(shots / "ex1-illegal-window.png"))


def test_every_builtin_example_renders(browser, tmp_path, shots):
    page = check_html(tmp_path, "--examples")
    open_page(browser, page)
    sections = browser.find_elements(By.CSS_SELECTOR, "section.play")
    assert len(sections) == len(builtin_examples())
    for k, path in enumerate(builtin_examples(), start=1):
        v = check_play(load(path))
        section = browser.find_element(By.ID, f"p{k}")
        assert v.verdict.upper() in section.find_element(By.CSS_SELECTOR, "p.verdict").text
        # every window's options are there (folded)
        assert section.find_elements(By.CSS_SELECTOR, "tr.opening details.options")
        if v.verdict == "illegal":
            row = browser.find_element(By.ID, f"p{k}-illegal")
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
            assert row.is_displayed() and "ILLEGAL" in row.text, path
            assert v.first_illegal["action"].strip() in row.text
    browser.find_element(By.CSS_SELECTOR, "table.summary").is_displayed()
    assert browser.save_screenshot(str(shots / "examples.png"))


def test_the_diff_page_renders(browser, tmp_path, shots):
    stored = json.loads((ROOT / "docs" / "tcg-vs-ocg.json").read_text("utf-8"))
    page = tmp_path / "diff.html"
    page.write_text(diff_html.report(stored), "utf-8")
    open_page(browser, page, "#d1")
    legal, illegal = (f"d1-{stored['differences'][0][k]}" for k in ("legal_in", "illegal_in"))
    a, b = browser.find_element(By.ID, f"{legal}-diverge"), browser.find_element(By.ID, f"{illegal}-illegal")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", a)
    assert a.is_displayed() and b.is_displayed() and "DIVERGES HERE" in a.text and "ILLEGAL" in b.text
    # side by side: the two plays' rows start at the same height, left then right
    assert a.location["x"] < b.location["x"]
    assert browser.save_screenshot(str(shots / "diff.png"))


def test_escaped_script_stays_text_in_the_browser(browser, tmp_path):
    evil = '<script>console.error("ran")</script>'
    card = {"name": evil, "type": "monster", "subtype": "normal", "level": 4, "atk": 1000, "def": 1000,
            "effects": []}
    p = tmp_path / "evil.play"
    p.write_text(f"title: {evil}\nruleset: ocg\ncard: {json.dumps(card)}\nA monster {json.dumps(evil)}\n"
                 "enter battle phase\n", "utf-8")
    page = check_html(tmp_path, p)
    open_page(browser, page)     # no console message: the script did not run
    assert evil in browser.find_element(By.CSS_SELECTOR, "#p1 h2").text
    assert browser.execute_script("return document.scripts.length") == 0
