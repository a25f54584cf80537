"""The web page in a real browser (issue 30): headless Chromium driven by Selenium.

Click nine cards and read the advice; change the seat and see it refresh; upload a
record and read a trick's values; and at 1400 and 420 px nothing runs off the page.
Skipped, with the reason, where Chromium, its driver or Selenium is missing
(``.ci/run`` installs Debian's chromium and chromium-driver where it can).
Screenshots go to ``CINCH_SCREENSHOTS`` when it names a folder (to look at them).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from web_server import running

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
try:
    import selenium  # noqa: F401

    SELENIUM = True
except ImportError:
    SELENIUM = False
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER and SELENIUM),
    reason="no Chromium, chromedriver or selenium here: the web page is not checked in a browser",
)
HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
SHOTS = os.environ.get("CINCH_SCREENSHOTS")


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(arg)
    opts.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_window_size(1400, 1600)
    with running(workers=2) as base:
        driver.base = base
        yield driver
    driver.quit()


def _wait(driver, until, seconds: float = 60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.1).until(until)


def _text(driver, id_: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, id_).text


def _fits(driver) -> bool:
    """Nothing wider than the window: the page never scrolls sideways."""
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1"
    )


def _shot(driver, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))


# the phone width in the slow set (CI runs both): the same steps, a narrower window
WIDTHS = [1400, pytest.param(420, marks=pytest.mark.slow)]


@pytest.mark.parametrize("width", WIDTHS)
def test_click_nine_cards_read_the_advice_change_the_seat(browser, width):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from cinch_sim.api import advise

    browser.set_window_size(width, 1600)
    browser.get(browser.base + "/")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cards button.card"))
    for card in HAND.split():
        browser.find_element(By.CSS_SELECTOR, f'#cards button[data-card="{card}"]').click()
    assert _text(browser, "count") == "9 of 9 cards"
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    want = advise(HAND, dealer=3).to_dict()["advice"].removeprefix("Advice: ")
    assert _text(browser, "advice") == want
    assert _fits(browser)
    _shot(browser, f"advisor-{width}")
    Select(browser.find_element(By.ID, "seat")).select_by_value("2")
    _wait(browser, lambda d: "--seat 2" in _text(d, "cli") and "(final)" in _text(d, "status"))
    want2 = advise(HAND, seat=2, dealer=3).to_dict()["advice"].removeprefix("Advice: ")
    assert _text(browser, "advice") == want2
    rows = browser.find_elements(By.CSS_SELECTOR, "#table tr[data-bid]")
    assert [r.get_attribute("data-bid") for r in rows] == [str(b) for b in range(1, 15)]


def test_a_bad_hand_shows_its_error_on_the_page(browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/")
    box = browser.find_element(By.ID, "hand")
    box.send_keys("AS KS 5S 5C 2S 9H 3D 7C 7C")
    _wait(browser, lambda d: "duplicate card 7C" in _text(d, "error"), 20)


@pytest.mark.parametrize("width", WIDTHS)
def test_upload_a_record_and_read_a_trick_s_values(browser, width, tmp_path):
    from selenium.webdriver.common.by import By

    from cinch_sim.api import simulate, solve

    path = tmp_path / "hand.jsonl"
    simulate(hands=1, seed=12, records=str(path))
    want = solve(str(path)).hands[0]
    browser.set_window_size(width, 1600)
    browser.get(browser.base + "/review")
    browser.find_element(By.ID, "file").send_keys(str(path))
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".trick"))
    tricks = browser.find_elements(By.CSS_SELECTOR, ".trick")
    assert len(tricks) == len(want["tricks"])
    for trick, t in zip(tricks, want["tricks"], strict=True):
        plays = trick.find_elements(By.CSS_SELECTOR, ".play")
        got = [(p.get_attribute("data-card"), int(p.get_attribute("data-before")),
                int(p.get_attribute("data-after"))) for p in plays]  # fmt: skip
        assert got == [(p["card"], p["before"], p["after"]) for p in t["plays"]]
        lost = [p for p in plays if "lost" in p.get_attribute("class").split()]
        assert len(lost) == sum(1 for p in t["plays"] if p["lost"] > 0)
    assert _fits(browser)
    _shot(browser, f"review-{width}")


@pytest.mark.parametrize("width", WIDTHS)
def test_play_a_whole_hand_to_the_review(browser, width):
    import re

    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 1600)
    browser.get(browser.base + "/play")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    browser.find_element(By.ID, "new").click()
    hinted = False
    for _ in range(40):
        _wait(browser, lambda d: _text(d, "prompt"))
        prompt = _text(browser, "prompt")
        step = browser.find_element(By.ID, "board").get_attribute("data-step")
        if prompt.startswith("Hand over"):
            break
        if prompt.startswith("Your bid") or prompt.startswith("Name trump"):
            browser.find_elements(By.CSS_SELECTOR, "#choices button")[-1].click()
        elif "click the cards to keep" in prompt:
            lo = int(re.search(r"keep \((\d+)", prompt).group(1))
            for b in browser.find_elements(By.CSS_SELECTOR, "#hand button.card"):
                if len(browser.find_elements(By.CSS_SELECTOR, "#hand button.card.keep")) >= lo:
                    break
                if "keep" not in b.get_attribute("class") and b.is_enabled():
                    b.click()
            browser.find_element(By.ID, "keepgo").click()
        else:
            if not hinted:
                browser.find_element(By.ID, "hint").click()
                _wait(browser, lambda d: "would play" in _text(d, "hinttext"))
                hinted = True
                _shot(browser, f"play-{width}")
            cards = [b for b in browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
                     if b.is_enabled()]  # fmt: skip
            cards[0].click()
        _wait(browser, lambda d, was=step: d.find_element(By.ID, "board").get_attribute(
            "data-step") != was, 60)  # fmt: skip
    assert _text(browser, "prompt").startswith("Hand over")
    assert browser.find_elements(By.CSS_SELECTOR, "#review .trick")
    assert "totals side 0:" in _text(browser, "score")
    assert _fits(browser)
    _shot(browser, f"play-over-{width}")
