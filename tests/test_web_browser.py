"""The web page in real browsers (issue 30): headless Chromium driven by Selenium, and
headless Firefox driven through its own Marionette protocol.

Click nine cards and read the advice; change the seat and see it refresh; upload a
record and read a trick's values; play whole hands; and at 1400 and 420 px nothing
runs off the page. Chromium is skipped, with the reason, where it, its driver or
Selenium is missing (``.ci/run`` installs Debian's chromium and chromium-driver);
Firefox where ``firefox-esr`` (or ``firefox``) or the ``marionette-driver`` package
is missing (it has no driver package on Debian: install both to run it).
Screenshots go to ``CINCH_SCREENSHOTS`` when it names a folder (to look at them).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from web_server import running

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
try:
    import selenium  # noqa: F401

    SELENIUM = True
except ImportError:
    SELENIUM = False
try:
    import marionette_driver  # noqa: F401

    MARIONETTE = True
except ImportError:
    MARIONETTE = False
pytestmark = pytest.mark.skipif(not SELENIUM, reason="selenium is not installed")
HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
SHOTS = os.environ.get("CINCH_SCREENSHOTS")
BROWSERS = [
    pytest.param("chromium", marks=pytest.mark.skipif(
        not (CHROMIUM and DRIVER),
        reason="no Chromium or chromedriver here: the web page is not checked in Chromium")),
    # Firefox in the slow set: the default run checks the pages in one browser
    pytest.param("firefox", marks=[pytest.mark.slow, pytest.mark.skipif(
        not (FIREFOX and MARIONETTE),
        reason="no Firefox or marionette-driver here: the web page is not checked in Firefox")]),
]  # fmt: skip


class Firefox:
    """Headless Firefox through Marionette, with the few Selenium calls the tests make."""

    def __init__(self) -> None:
        from marionette_driver.marionette import Marionette

        self._profile = tempfile.TemporaryDirectory()
        with socket.socket() as sock:  # a free port for Marionette
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        Path(self._profile.name, "user.js").write_text(f'user_pref("marionette.port", {port});\n')
        self._process = subprocess.Popen(
            [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile",
             self._profile.name],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._m = Marionette(host="127.0.0.1", port=port, startup_timeout=60)
        self._m.start_session()
        self.name = "firefox"

    def get(self, url: str) -> None:
        self._m.navigate(url)

    def set_window_size(self, width: int, height: int) -> None:
        self._m.set_window_rect(width=width, height=height)

    def find_element(self, by: str, value: str):
        return self._m.find_element(by, value)

    def find_elements(self, by: str, value: str):
        return self._m.find_elements(by, value)

    def execute_script(self, script: str, *args):
        return self._m.execute_script(script, script_args=list(args))

    def save_screenshot(self, path: str) -> None:
        Path(path).write_bytes(self._m.screenshot(format="binary"))

    def quit(self) -> None:
        self._m.delete_session()
        self._process.terminate()
        self._process.wait(30)
        time.sleep(0.2)
        self._profile.cleanup()


def _chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(arg)
    opts.binary_location = CHROMIUM
    return webdriver.Chrome(service=Service(DRIVER), options=opts)  # .name: "chrome"


# the pages' advice to a 95% half-width of 2 points, not the command line's 1 (serve
# --precision): a quarter of the deals, and each answer still checked against advise's
PRECISION = 0.02


@pytest.fixture(scope="module", params=BROWSERS)
def browser(request):
    driver = _chromium() if request.param == "chromium" else Firefox()
    driver.set_window_size(1400, 1600)
    with running(PRECISION, workers=2) as base:
        driver.base = base
        yield driver
    driver.quit()


def _select(driver, id_: str, value: str) -> None:
    """Choose an option of a select box, as a person's choice fires its change event."""
    driver.execute_script(
        "const s = document.getElementById(arguments[0]); s.value = arguments[1];"
        "s.dispatchEvent(new Event('change', { bubbles: true }));",
        id_,
        value,
    )


def _wait(driver, until, seconds: float = 60):
    """``until`` polled till true; an element a redraw replaced mid-poll is asked again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    stale = (StaleElementReferenceException,)
    return WebDriverWait(driver, seconds, poll_frequency=0.1, ignored_exceptions=stale).until(until)


def _text(driver, id_: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, id_).text


def _fits(driver) -> bool:
    """Nothing wider than the window: the page never scrolls sideways."""
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1"
    )


def _table_fits(driver) -> bool:
    """The advice table within its box: no sideways scroll inside the page either (on a
    phone each interval goes under its value)."""
    return driver.execute_script(
        "const box = document.getElementById('table').parentElement;"
        "return box.scrollWidth <= box.clientWidth + 1"
    )


def _shot(driver, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / f"{driver.name}-{name}.png"))


# The default run opens each page in one browser at one width: the advice, the play
# to its review, an uploaded record, and the quick checks; the phone width and the
# longer walks through a page are in the slow set (CI runs both). test_web.py asks
# the server the same questions without a browser.
WIDTHS = [1400, pytest.param(420, marks=pytest.mark.slow)]


@pytest.mark.parametrize("width", WIDTHS)
def test_click_nine_cards_read_the_advice_change_the_seat(browser, width):
    from selenium.webdriver.common.by import By

    from cinch_sim.api import advise

    browser.set_window_size(width, 1600)
    browser.get(browser.base + "/")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cards button.card"))
    for card in HAND.split():
        browser.find_element(By.CSS_SELECTOR, f'#cards button[data-card="{card}"]').click()
    assert _text(browser, "count") == "9 of 9 cards"
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    want = advise(HAND, dealer=3, precision=PRECISION).to_dict()["advice"].removeprefix("Advice: ")
    assert _text(browser, "advice") == want
    assert _fits(browser)
    _shot(browser, f"advisor-{width}")
    _select(browser, "seat", "2")
    _wait(browser, lambda d: "--seat 2" in _text(d, "cli") and "(final)" in _text(d, "status"))
    adv = advise(HAND, seat=2, dealer=3, precision=PRECISION)
    assert _text(browser, "advice") == adv.to_dict()["advice"].removeprefix("Advice: ")
    # the rows from the lowest bid won on these deals up; the bids below, never won, a note
    from cinch_sim.cards import SUITS

    won = adv.win[SUITS.index(adv.best_trump), 1:]  # deals won as the maker, bid by bid
    lowest = int(adv.bids[int((won > 0).argmax())])
    rows = browser.find_elements(By.CSS_SELECTOR, "#table tr[data-bid]")
    assert [r.get_attribute("data-bid") for r in rows] == [str(b) for b in range(lowest, 15)]
    assert _table_fits(browser)
    # every rate with its interval, whether in a column of its own or under the value
    cell = rows[-1].find_elements(By.TAG_NAME, "td")[2]
    assert re.search(r"\[[0-9.]+, [0-9.]+\]", cell.text if width < 760 else rows[-1].text)
    if lowest > 1:
        never = f"bid{'s 1–' if lowest > 2 else ' '}{lowest - 1}: never won the auction"
        assert never in _text(browser, "tablenote")


@pytest.mark.slow  # about 8 s: three stages of a pooled query
def test_a_rare_auction_is_advised_and_says_how_its_deals_were_drawn(browser):
    """7, 10, 11 before the dealer fits none of 50,000 whole deals: the page gives the
    advice from deals joined of hands that make each call, and says so."""
    from selenium.webdriver.common.by import By

    from cinch_sim.api import advise

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/")
    box = browser.find_element(By.ID, "hand")
    box.clear()
    box.send_keys(HAND)
    _select(browser, "seat", "3")
    bids = browser.find_element(By.ID, "bids")
    bids.clear()
    bids.send_keys("0:7,1:10,2:11")
    _wait(browser, lambda d: "--bids" in _text(d, "cli") and "(final)" in _text(d, "status"))
    assert "each deal is put together from hands that make those bids" in _text(browser, "status")
    want = advise(HAND, seat=3, dealer=3, bids="0:7,1:10,2:11", precision=PRECISION)
    want = want.to_dict()["advice"]
    assert _text(browser, "advice") == want.removeprefix("Advice: ")
    assert _fits(browser)
    _shot(browser, "advisor-rare-auction")


@pytest.mark.slow  # 2 s; test_web.py checks the error text
def test_a_bad_hand_shows_its_error_on_the_page(browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/")
    box = browser.find_element(By.ID, "hand")
    box.clear()  # a page may bring back the last hand typed
    box.send_keys("AS KS 5S 5C 2S 9H 3D 7C 7C")
    # said once, on the count line, in the grid's words; the server is not asked
    _wait(browser, lambda d: "7♣ 2 times (one deck holds each card once)" in _text(d, "count"))
    _wait(browser, lambda d: _text(d, "advice").startswith("Mend the hand"))
    assert _text(browser, "error") == ""
    for typed, said in (
        ("foo", "0 of 9 cards: 'foo' is not a card"),
        ("hello world this is not a hand at all ok", "0 of 9 cards: 'hello', 'world', "),
        ("AS KS 5S 5C 2S 9H 3D 7C JX", "8 of 9 cards: 'JX' is not a card"),
    ):
        box.clear()
        box.send_keys(typed)
        _wait(browser, lambda d, said=said: _text(d, "count").startswith(said))
        _wait(browser, lambda d: _text(d, "advice").startswith("Mend the hand"))
        assert _text(browser, "error") == ""


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


def _keep_enough(browser) -> None:
    """A discard: click cards the page offers until it lets them be kept, then keep."""
    from selenium.webdriver.common.by import By

    go = browser.find_element(By.ID, "keepgo")
    for b in browser.find_elements(By.CSS_SELECTOR, "#hand button.card"):
        if go.is_enabled():
            break
        if "keep" not in b.get_attribute("class") and b.is_enabled():
            b.click()
    assert go.is_enabled(), _text(browser, "prompt") + _text(browser, "choices")
    go.click()


@pytest.mark.parametrize(
    "width, variant",
    [(1400, "standard")]
    + [pytest.param(1400, v, marks=pytest.mark.slow) for v in ("two_deck", "widow")]
    + [pytest.param(420, v, marks=pytest.mark.slow) for v in ("standard", "two_deck", "widow")],
)
def test_play_a_whole_hand_to_the_review(browser, width, variant):
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 1600)
    browser.get(browser.base + "/play")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    _select(browser, "variant", variant)
    hint = browser.find_element(By.ID, "hint")  # no game yet: nothing to hint, and it shows
    assert not hint.is_enabled() and float(hint.value_of_css_property("opacity")) < 1
    browser.find_element(By.ID, "new").click()
    hinted = False
    for _ in range(40):
        _wait(browser, lambda d: _text(d, "prompt"))
        prompt = _text(browser, "prompt")
        step = browser.find_element(By.ID, "board").get_attribute("data-step")
        if prompt.startswith("Hand over"):
            break
        if prompt.startswith("Your bid") or prompt.startswith("Name trump"):
            hand = browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
            assert hand and all(  # your cards to read while you bid: not clickable, not faded
                not b.is_enabled() and b.value_of_css_property("opacity") == "1" for b in hand
            )
            browser.find_elements(By.CSS_SELECTOR, "#choices button")[-1].click()
        elif prompt.startswith(("Discard", "Rob the pack", "With your widow")):
            if variant == "widow":  # the keep after the widow: six of thirteen
                # six of thirteen: chosen, or (six trumps or more) the trumps stay and the
                # page says which six it keeps
                assert prompt.startswith("With your widow (")
                kept = prompt.partition(": you keep ")[2].partition(", the rest go.")[0]
                assert "keep exactly 6 cards" in prompt or len(kept.split()) == 6, prompt
                assert len(browser.find_elements(By.CSS_SELECTOR, "#hand button.card")) == 13
                _shot(browser, f"play-widow-keep-{width}")
            if (m := re.search(r"keep (\d+) to (\d+) cards", prompt)) is not None:
                offered = browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
                assert int(m[2]) <= len(offered), prompt  # two decks: "0 to 8" of two
            _keep_enough(browser)
        else:
            if not hinted:
                browser.find_element(By.ID, "hint").click()
                _wait(browser, lambda d: "would play" in _text(d, "hinttext"))
                hinted = True
                _shot(browser, f"play-{variant}-{width}")
            cards = [b for b in browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
                     if b.is_enabled()]  # fmt: skip
            cards[0].click()
        _wait(browser, lambda d, was=step: d.find_element(By.ID, "board").get_attribute(
            "data-step") != was, 60)  # fmt: skip
    assert _text(browser, "prompt").startswith("Hand over")
    tricks = browser.find_elements(By.CSS_SELECTOR, "#review .trick")
    assert len(tricks) == (12 if variant == "two_deck" else 6)
    assert "totals: you and your partner " in _text(browser, "score")
    assert ", the opponents " in _text(browser, "score")
    if variant == "two_deck":  # the solver values the cards from trick 5 (solver.limits)
        assert "start of trick 5" in _text(browser, "prompt")
        assert "not solved" in tricks[3].text and "value " in tricks[4].text
    # the hand's record to save: one line the referee finds valid, of this hand's tricks
    link = browser.find_element(By.ID, "record")
    assert link.get_attribute("download") == "hand-1.jsonl"
    saved = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(document.getElementById('record').href).then((r) => r.text()).then(done);"
    )
    from cinch_sim.records import referee_record

    lines = saved.splitlines()
    assert len(lines) == 1 and referee_record(json.loads(lines[0])).status == "valid"
    assert len(json.loads(lines[0])["tricks"]) == len(tricks)
    assert _fits(browser)
    _shot(browser, f"play-over-{variant}-{width}")


@pytest.mark.slow  # 1.3 s
def test_a_reload_comes_back_to_the_game_and_a_lost_one_says_so(browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/play")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    _select(browser, "variant", "sancho")
    _select(browser, "myseat", "1")
    browser.find_element(By.ID, "new").click()
    _wait(browser, lambda d: _text(d, "prompt") and "#game=" in d.current_url)

    def seen(d) -> tuple:
        hand = d.find_elements(By.CSS_SELECTOR, "#hand button.card")
        cards = [b.get_attribute("data-card") for b in hand]
        return _text(d, "prompt"), _text(d, "auction"), _text(d, "score"), cards

    before = seen(browser)
    assert before[3], before  # a question with the person's cards
    again = _text(browser, "again")  # the link that deals this game again
    assert again.startswith("Deal these hands again: /play?seed=")
    browser.refresh()
    _wait(browser, lambda d: _text(d, "prompt"))
    assert seen(browser) == before
    assert _text(browser, "again") == again
    assert _text(browser, "variant-words").startswith("standard plus the 9 of trumps")
    # the setup is this game's again: "New game" would start the same table
    picked = browser.execute_script(
        "return ['variant', 'myseat', 'bots'].map((i) => document.getElementById(i).value)"
    )
    assert picked == ["sancho", "1", "heuristic"]
    # a game the server no longer holds (restarted): a message, the address cleared
    browser.get(browser.base + "/play#game=00000000deadbeef")
    browser.refresh()  # a new hash alone is no new page load
    _wait(browser, lambda d: _text(d, "error"))
    assert "no longer on the server" in _text(browser, "error")
    assert "#game" not in browser.current_url


def _answer_shown(driver) -> dict:
    """What the advisor page shows as its answer: the sentence, the status, whether a
    chart and a table are drawn."""
    return driver.execute_script(
        "return { advice: document.getElementById('advice').textContent,"
        " status: document.getElementById('status').textContent,"
        " chart: document.querySelectorAll('#chart svg').length,"
        " rows: document.querySelectorAll('#table tr').length,"
        " cli: document.getElementById('cli').textContent };"
    )


def _pick(browser, hand: str) -> None:
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "hand")
    box.clear()
    box.send_keys(hand)


@pytest.mark.slow  # 6.5 s
def test_an_answer_is_never_shown_beside_inputs_it_was_not_computed_for(browser):
    """Bad bids, a bid for another seat, another variant, another play: the chart, the
    table and the status go at once with the sentence (they stayed, or the status
    stuck at "dealing..." beside the last answer)."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cards button.card"))
    _pick(browser, HAND)
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    shown = _answer_shown(browser)
    assert shown["chart"] == 1 and shown["rows"] > 5 and "percentage points" in shown["status"]
    browser.find_element(By.ID, "bids").send_keys("0:8,1:banana")
    gone = _answer_shown(browser)  # at once, before the server is asked
    assert gone == {"advice": "", "status": "", "chart": 0, "rows": 0, "cli": ""}
    _wait(browser, lambda d: "banana" in _text(d, "error"))
    assert _answer_shown(browser) == gone
    browser.find_element(By.ID, "bids").clear()
    _select(browser, "seat", "2")
    browser.find_element(By.ID, "bids").send_keys("0:14,1:pass")
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    shown = _answer_shown(browser)  # an earlier 14: pass, no deal, nothing to draw
    assert shown["advice"] == "Pass: 14 is the highest bid there is, so no bid is left for you."
    assert shown["chart"] == 0 and shown["rows"] == 0 and _text(browser, "error") == ""
    browser.find_element(By.ID, "bids").clear()
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    _select(browser, "play", "pimc")  # the heuristic's answer goes at once
    assert _answer_shown(browser)["chart"] == 0 and _text(browser, "advice") == ""
    _select(browser, "play", "heuristic")  # (cancels PIMC's query)
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    _select(browser, "variant", "cutthroat6")  # six cards a hand: nine are too many
    assert _answer_shown(browser)["chart"] == 0
    _wait(browser, lambda d: _text(d, "advice").startswith("Too many cards: 9 given"))
    assert _answer_shown(browser)["status"] == "" and _answer_shown(browser)["rows"] == 0
    _select(browser, "variant", "standard")


@pytest.mark.slow  # 1 s
@pytest.mark.parametrize("page", ["/", "/play", "/review"])
def test_each_variant_menu_says_the_whole_of_the_chosen_preset_under_it(browser, page):
    """The closed menu cuts a long entry at its width ("sancho_classic: Pedro Sancho of
    Foster and Parlett" on a phone); the line under it gives the chosen preset's whole
    description, wrapped to the panel."""
    from selenium.webdriver.common.by import By

    from cinch_sim.rules import PRESETS

    words = {p.name: p.description for p in PRESETS}
    browser.set_window_size(390, 900)
    browser.get(browser.base + page)
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    assert _text(browser, "variant-words") == words["standard"]
    _select(browser, "variant", "sancho_classic")
    line = browser.find_element(By.ID, "variant-words")
    assert line.text == words["sancho_classic"]
    right = browser.execute_script("return arguments[0].getBoundingClientRect().right", line)
    assert right <= browser.execute_script("return document.documentElement.clientWidth")


@pytest.mark.slow  # 1.3 s
def test_the_grid_holds_a_hand_and_two_decks_copies(browser):
    """A tenth card is refused, saying why; with two decks a face typed twice counts
    twice, and a click takes one copy out, not both."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    # the menu says what each preset is: its Sancho, its Dom
    sancho = browser.find_element(By.CSS_SELECTOR, '#variant option[value="sancho"]').text
    assert sancho == "sancho: standard plus the 9 of trumps (Sancho) worth 9"
    _pick(browser, HAND)
    browser.find_element(By.CSS_SELECTOR, '#cards button[data-card="QH"]').click()
    assert _text(browser, "count").startswith("9 of 9 cards: the hand is full")
    assert "QH" not in browser.find_element(By.ID, "hand").get_attribute("value")
    _select(browser, "variant", "two_deck")
    twice = "AS AS KS 5S 5C 2S 9H 3D 7C JD JD 4H 6H 8H TH QC KC AC"
    _pick(browser, twice)
    assert _text(browser, "count") == "18 of 18 cards"
    ace = browser.find_element(By.CSS_SELECTOR, '#cards button[data-card="AS"]')
    assert ace.get_attribute("data-count") == "2"
    ace.click()
    assert _text(browser, "count") == "17 of 18 cards"
    assert browser.find_element(By.ID, "hand").get_attribute("value").split().count("AS") == 1
    ace.click()  # not full: the second copy back
    assert _text(browser, "count") == "18 of 18 cards" and ace.get_attribute("data-count") == "2"
    _select(browser, "variant", "standard")


@pytest.mark.parametrize("width", [1400, 420])
def test_the_seat_menu_s_words_fit(browser, width):
    """The seat box shows its option whole ("eldest hand (assumed)" was cut off)."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 1600)
    browser.get(browser.base + "/")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat option"))
    room = browser.execute_script(
        "const s = document.getElementById('seat'), c = document.createElement('canvas')"
        ".getContext('2d'), st = getComputedStyle(s);"
        "c.font = st.font || `${st.fontSize} ${st.fontFamily}`;"
        "const pad = parseFloat(st.paddingLeft) + parseFloat(st.paddingRight) + 24;"
        "return [...s.options].map((o) => s.clientWidth - pad - c.measureText(o.text).width);"
    )
    assert min(room) > 0, room


def test_a_bad_seed_shows_its_error_alone(browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/review")
    seed = browser.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("-3")
    browser.find_element(By.ID, "deal").click()
    assert "seed must be a whole number" in _text(browser, "error")
    assert _text(browser, "hands") == ""  # not "dealing and solving..."


def test_a_hand_of_any_variant_is_dealt_for_review(browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/review")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    dd = browser.find_element(By.CSS_SELECTOR, '#play option[value="dd"]')
    _select(browser, "play", "dd")
    _select(browser, "variant", "two_deck")  # the solver cannot play it: greyed out, why
    assert not dd.is_enabled() and "two decks" in dd.get_attribute("title")
    assert browser.find_element(By.ID, "play").get_attribute("value") == "heuristic"
    _select(browser, "variant", "cutthroat3")
    assert dd.is_enabled()
    browser.find_element(By.ID, "deal").click()
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hands .trick"))
    record = json.loads(browser.find_element(By.ID, "records").get_attribute("value"))
    assert record["rules"]["preset"] == "cutthroat3"
    who = browser.find_elements(By.CSS_SELECTOR, "#hands .play small:nth-of-type(1)")
    assert {w.text for w in who} == {"seat 0", "seat 1", "seat 2"}  # cut-throat: no sides
    assert _fits(browser)


def _new_game(browser, variant: str, seat: int = 0, seed: int | None = None) -> None:
    """A new game from the page's button; a seed (the address's ``?seed=``) deals it."""
    from selenium.webdriver.common.by import By

    browser.get(browser.base + "/play" + ("" if seed is None else f"?seed={seed}"))
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    _select(browser, "variant", variant)
    _select(browser, "myseat", str(seat))
    browser.find_element(By.ID, "new").click()
    _wait(browser, lambda d: _text(d, "prompt"))


def _step(browser) -> str:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, "board").get_attribute("data-step")


@pytest.mark.slow  # 3 s; the server refuses a stale move in test_web.py too
def test_a_double_click_answers_one_question_once(browser):
    """While a move is out every button is off: a double click on "pass" answered the
    next question with 0 ("'int' object is not iterable")."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    _new_game(browser, "standard")
    assert _text(browser, "prompt") == "Your bid:"
    step = _step(browser)
    # the server's answer held back a second: the buttons must be off meanwhile
    browser.execute_script(
        "const f = window.fetch; window.fetch = (...a) => new Promise((ok) =>"
        " setTimeout(() => ok(f(...a)), 1000));"
    )
    ActionChains(browser).double_click(
        browser.find_element(By.CSS_SELECTOR, '#choices button[data-bid="0"]')
    ).perform()
    off = browser.execute_script(
        "return [...document.querySelectorAll('#board button')].every((b) => b.disabled)"
    )
    _wait(browser, lambda d: _step(d) != step)
    time.sleep(1.5)  # a second request, had one gone, would be answered by now
    assert off and _text(browser, "error") == ""
    assert not _text(browser, "prompt").startswith("Your bid")  # one answer was taken


PIDRO_SEED = 1


@pytest.mark.slow  # 2.4 s
@pytest.mark.parametrize("width", WIDTHS)
def test_a_pidro_hand_tells_who_played_and_won_each_trick(browser, width):
    """pidro: only trumps are played, so a seat may sit a trick out. Every card of a
    trick names its seat, every finished trick its winner (short ones too), each
    trick is one block, the discard offers only trumps, and the end says who won."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 1600)
    _new_game(browser, "pidro", seed=PIDRO_SEED)  # a deal where a card is played for you
    assert _text(browser, "setup-title") == "A game against three bots"
    # from a seed's address every game deals those hands: the page says where new ones are
    again = f"Deal these hands again: /play?seed={PIDRO_SEED} (new hands: /play)"
    assert _text(browser, "again") == again
    shot = False
    for _ in range(40):
        prompt = _text(browser, "prompt")
        step = _step(browser)
        if prompt.startswith("Hand over"):
            break
        if prompt.startswith(("Your bid", "Name trump")):
            browser.find_elements(By.CSS_SELECTOR, "#choices button")[-1].click()
        elif prompt.startswith(("Discard", "Rob the pack")):
            if prompt.startswith("Discard"):
                assert "every non-trump goes under these rules" in prompt
                offered = [b.get_attribute("data-card") for b in browser.find_elements(
                    By.CSS_SELECTOR, "#hand button.card") if b.is_enabled()]  # fmt: skip
                trumps = browser.execute_script("return state.question.trumps")
                assert set(offered) <= set(trumps)
            _keep_enough(browser)
        else:
            if not shot and len(browser.find_elements(By.CSS_SELECTOR, ".trick-row")) > 1:
                _shot(browser, f"play-pidro-{width}")
                shot = True
            cards = [b for b in browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
                     if b.is_enabled()]  # fmt: skip
            cards[0].click()
        _wait(browser, lambda d, was=step: _step(d) != was, 60)
    assert _text(browser, "prompt").startswith("Hand over. ")
    assert " and made it" in _text(browser, "prompt") or " set" in _text(browser, "prompt")
    rows = browser.find_elements(By.CSS_SELECTOR, "#tricks .trick-row")
    assert rows and not browser.find_elements(By.CSS_SELECTOR, "#tricks .trick-row.current")
    for row in rows:
        assert ", won by " in row.find_element(By.CSS_SELECTOR, ".label").text
        seats = [p.find_element(By.TAG_NAME, "small").text
                 for p in row.find_elements(By.CSS_SELECTOR, ".played")]  # fmt: skip
        assert seats and all(s in ("you", "partner") or s.startswith("seat ") for s in seats)
        # the partner sits opposite (pidro: four seats, partners across the table)
        assert all(s != "seat 2" for s in seats), seats
    # a card the kernel played for you (your only legal one) says so
    forced = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#tricks .played .forced")]
    assert forced and set(forced) == {"your only legal card, played for you"}
    # one block a trick: each card inside its row's box, the rows one under another
    assert browser.execute_script(
        "const rows = [...document.querySelectorAll('#tricks .trick-row')];"
        "return rows.every((r, i) => { const b = r.getBoundingClientRect();"
        " const inside = [...r.querySelectorAll('.played')].every((p) => {"
        "  const c = p.getBoundingClientRect();"
        "  return c.top >= b.top && c.bottom <= b.bottom"
        "   && c.left >= b.left && c.right <= b.right; });"
        " return inside && (i === 0 || rows[i - 1].getBoundingClientRect().bottom <= b.top); });"
    )
    assert "you and your partner" in _text(browser, "score")
    assert _text(browser, "review").startswith("hand 1")  # not "line 1"
    assert _fits(browser)
    _shot(browser, f"play-pidro-over-{width}")


def test_the_setup_counts_the_bots_of_the_variant(browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/play")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    _select(browser, "variant", "cutthroat3")
    assert _text(browser, "setup-title") == "A game against two bots"
    _select(browser, "variant", "heasly")
    assert _text(browser, "setup-title") == "A game against five bots"
    assert _text(browser, "new") == "New game against five bots"
    # with a game on, another variant waits for the button: the heading stays the game's
    _select(browser, "variant", "cutthroat3")
    browser.find_element(By.ID, "new").click()
    _wait(browser, lambda d: _text(d, "prompt"))
    _select(browser, "variant", "standard")
    assert _text(browser, "setup-title") == "A game against two bots"
    assert _text(browser, "new") == "New game against three bots"


def _advise_on_page(browser, width: int, variant: str, hand: str, **fields: str) -> None:
    """The advisor page asked about ``hand`` under ``variant`` (seat, dealer, bids)."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 1600)
    browser.get(browser.base + "/")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"))
    _select(browser, "variant", variant)
    for name in ("seat", "dealer"):
        if name in fields:
            _select(browser, name, fields[name])
    browser.find_element(By.ID, "bids").clear()
    if fields.get("bids"):
        browser.find_element(By.ID, "bids").send_keys(fields["bids"])
    _pick(browser, hand)


@pytest.mark.slow  # 2 s
@pytest.mark.parametrize("width", WIDTHS)
def test_cut_throat_advice_says_what_its_margin_means(browser, width):
    """cutthroat3: the note under the table says what ev is there, "your score change
    minus the average opponent's" (the page never said), as the command line does."""
    from cinch_sim.advisor.present import ev_text

    _advise_on_page(browser, width, "cutthroat3", HAND, dealer="2")
    _wait(browser, lambda d: "(final)" in _text(d, "status"))  # no stage redraws after
    note = _text(browser, "tablenote")  # the page's table has no own and opp columns
    assert f"({ev_text(alone=True, sides=False)}.)" in note and "own:" not in note
    heads = browser.execute_script(  # at once: the table is read as one piece
        "return [...document.querySelectorAll('#table th')].map((h) => h.firstChild.textContent);"
    )
    assert "ev vs pass" in heads
    assert _fits(browser) and _table_fits(browser)
    browser.execute_script("document.getElementById('tablenote').scrollIntoView()")
    _shot(browser, f"advisor-cutthroat3-{width}")


@pytest.mark.slow  # 2 s
@pytest.mark.parametrize("width", WIDTHS)
def test_a_stuck_dealer_s_table_shows_the_bids_own_margins(browser, width):
    """pidro, the dealer after three passes: no ev against pass exists, so each bid's
    own margin (own - opp) fills the column, and the note says why (every cell was "–"
    beside "expected margin +9.5")."""

    from cinch_sim.advisor.present import STUCK_DEALER

    _advise_on_page(browser, width, "pidro", HAND, seat="3", dealer="3",
                    bids="0:pass,1:pass,2:pass")  # fmt: skip
    _wait(browser, lambda d: STUCK_DEALER in _text(d, "tablenote"))
    heads, margins = browser.execute_script(  # at once: a finer stage redraws the table
        "const t = document.getElementById('table');"
        "return [[...t.querySelectorAll('th')].map((h) => h.textContent),"
        " [...t.querySelectorAll('tr[data-bid]')]"
        ".map((r) => r.children[5].firstChild.textContent)];"
    )
    assert heads[5].startswith("margin (own − opp)") and not any("ev vs pass" in h for h in heads)
    assert len(margins) == 9 and all(m[0] in "+-" for m in margins), margins
    assert "expected margin " in _text(browser, "advice")
    assert _fits(browser) and _table_fits(browser)
    browser.execute_script("document.getElementById('table').scrollIntoView()")
    _shot(browser, f"advisor-pidro-stuck-{width}")


@pytest.mark.slow  # 2.6 s
@pytest.mark.parametrize("width", [1400, 420])
def test_more_copies_than_the_decks_hold_are_marked_and_counts_fit(browser, width):
    """two_deck: A♠ typed three times is bad input, marked on the grid and in the count
    (it read "18 of 18 cards" in grey); a face held twice shows its 2 whole, 10♥ too
    (the mark was clipped); dd is not offered where the server cannot play it."""
    from selenium.webdriver.common.by import By

    _advise_on_page(browser, width, "standard", HAND)
    _select(browser, "play", "dd")
    _select(browser, "variant", "two_deck")  # dd goes back to the heuristic, and is off
    dd = browser.find_element(By.CSS_SELECTOR, '#play option[value="dd"]')
    assert not dd.is_enabled() and dd.text == "double-dummy (not with two decks)"
    assert "dd cannot play two_deck" in dd.get_attribute("title")
    assert browser.find_element(By.ID, "play").get_attribute("value") == "heuristic"
    _pick(browser, "AS AS AS KS 5S 5C 2S 9H 3D 7C JD JD 4H 6H TH TH QC KC")
    ace = browser.find_element(By.CSS_SELECTOR, '#cards button[data-card="AS"]')
    count = browser.find_element(By.ID, "count")
    assert "bad" in ace.get_attribute("class").split() and ace.get_attribute("data-count") == "3"
    assert "bad" in count.get_attribute("class").split()
    assert count.text == "18 of 18 cards: A♠ 3 times (two decks hold each card twice)"
    _wait(browser, lambda d: _text(d, "advice").startswith("Mend the hand"))
    assert _text(browser, "error") == ""  # said once, on the count line
    ten = browser.find_element(By.CSS_SELECTOR, '#cards button[data-card="TH"]')
    assert "bad" not in ten.get_attribute("class").split()
    # the mark sits on the corner, out of the face's way, and the face fits its button
    shown = browser.execute_script(
        "const b = arguments[0], r = document.createRange(); r.selectNodeContents(b);"
        "const a = getComputedStyle(b, '::after');"
        "return [a.content, a.position, getComputedStyle(b).overflow,"
        " r.getBoundingClientRect().width <= b.clientWidth + 0.5];",
        ten,
    )
    assert shown == ['"2"', "absolute", "visible", True]
    assert _fits(browser)
    _shot(browser, f"advisor-two-deck-bad-{width}")
    _select(browser, "variant", "standard")
    assert dd.is_enabled() and dd.text == "double-dummy (perfect play)"


def _hint_shown(browser, hint: dict, state: dict) -> str:
    """The play page's hint text for a hint the server sent (``call`` stubbed: the
    words, not the bots, are tried here) at a question ``state``."""
    browser.execute_script(
        "state = arguments[1]; table = 'stub'; window.call = async () => arguments[0];"
        "document.getElementById('hint').disabled = false;",
        hint,
        state,
    )
    browser.find_element("id", "hint").click()
    _wait(browser, lambda d: _text(d, "hinttext") not in ("", "thinking..."))
    return _text(browser, "hinttext")


def test_the_play_page_s_hints_say_what_their_numbers_are(browser):
    """PIMC's means at a cut-throat table are the maker's own score change or a
    defender's own points, not "your side's gain on the other"; a discard keeping no
    card is an answer; a bid hint says what its margin means, and why there is no pass."""
    from cinch_sim.advisor.present import EV_NOTE_ALONE, STUCK_DEALER

    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/play")
    _wait(browser, lambda d: d.find_elements("css selector", "#variant option"))
    alone = {"partnerships": False, "question": {"kind": "play", "hand": ["3D", "AS"]}}
    partners = {"partnerships": True, "question": alone["question"]}
    play = {"kind": "play", "heuristic": "3D", "pimc": "3D",
            "pimc_why": {"3D": -6.0, "AS": -14.0}, "solver": {"3D": 5, "AS": 2}}  # fmt: skip
    # one line a player: PIMC's mean and the solver's points are two scales
    text = _hint_shown(browser, {**play, "pimc_means": "score"}, alone)
    lines = text.splitlines()
    assert lines[:2] == ["The heuristic would play 3♦.", "PIMC would play 3♦."]
    assert lines[2] == ("PIMC, on average over the deals it samples, expects your score to "
                        "change by: -6.00 points after 3♦, -14.00 points after A♠.")  # fmt: skip
    assert lines[3] == ("Another scale, with every card seen (perfect play): the maker ends "
                        "the hand with 5 points after 3♦, 2 points after A♠.")  # fmt: skip
    text = _hint_shown(browser, {**play, "pimc_why": {"3D": 4.5, "AS": 0.0},
                                 "pimc_means": "points"}, alone)  # fmt: skip
    assert "expects you to end the hand with: 4.50 points after 3♦, 0.00 points after A♠" in text
    text = _hint_shown(browser, {**play, "pimc_means": "margin"}, partners)
    assert "expects your side to gain on the other: -6.00 points after 3♦" in text
    assert "the maker's side ends the hand with 5 points after 3♦" in text
    discard = {"partnerships": True, "question": {"kind": "discard", "hand": ["3D"] * 9}}
    text = _hint_shown(browser, {"kind": "discard", "heuristic": ""}, discard)
    assert text == "The heuristic would keep none: discard all 9."
    note = f"{STUCK_DEALER}: the bids are ranked by their own margins"
    bid = {"kind": "bid", "advice": "bid 6 in spades: ...; expected margin +9.5.", "call": 6,
           "note": note, "score_change": EV_NOTE_ALONE}  # fmt: skip
    text = _hint_shown(browser, bid, {"question": {"kind": "bid", "hand": []}})
    assert text.splitlines() == [f"The advisor: {bid['advice']}", f"({note}.)",
                                 f"({EV_NOTE_ALONE}.)"]  # fmt: skip


def test_the_hand_s_end_says_from_which_trick_it_was_solved(browser):
    """two_deck: "at the start of trick 5, the first solved under these rules,: 15."
    lost its stray comma; cut-throat says "the maker", not "the maker's side"."""
    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/play")
    _wait(browser, lambda d: d.find_elements("css selector", "#variant option"))
    review = {"status": "valid", "line": 1, "maker": 0, "bid": 20, "trump": "S", "dd_start": 15,
              "points": 15, "lost": [0, 0], "tricks": [], "from_trick": 5}  # fmt: skip
    state = {"status": "hand over", "seat": 0, "dealer": 3, "hand_number": 1, "move": 9,
             "sides": ["you and your partner", "the opponents"], "my_side": 0,
             "partnerships": True, "bids": [], "tricks": [], "summary": "You bid 20.",
             "game": {"totals": [20, 0], "target": 101, "winner": None},
             "review": {**review, "partnerships": True}}  # fmt: skip
    browser.execute_script("show(arguments[0])", state)
    assert _text(browser, "prompt") == (
        "Hand over. You bid 20. (Each card's value is the points the maker's side ends with "
        "if everyone then plays best, every card seen: a card that moves it against its own "
        "side gave points away. The value at the start of trick 5: 15; the tricks before "
        "are too dear to solve under these rules.)"
    )
    alone = {**state, "partnerships": False, "sides": ["you", "seat 1", "seat 2"],
             "review": {**review, "lost": [0, 0, 0], "partnerships": False}}  # fmt: skip
    alone["review"].pop("from_trick")
    alone["game"] = {"totals": [0, 0, 0], "target": 51, "winner": None}
    browser.execute_script("show(arguments[0])", alone)
    assert "(Each card's value is the points the maker ends with " in _text(browser, "prompt")
    assert "The value at the start: 15.)" in _text(browser, "prompt")
    assert "the maker took 15" in _text(browser, "review")


def test_a_cut_throat_review_names_seats_and_the_maker(browser, tmp_path):
    """The review page: a cut-throat hand's totals name the seats ("side 0" and "the
    maker's side" there were sides of one)."""
    from selenium.webdriver.common.by import By

    from cinch_sim.api import simulate

    path = tmp_path / "cut.jsonl"
    simulate(hands=1, seed=5, variant="cutthroat3", records=str(path), threads=1)
    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/review")
    browser.find_element(By.ID, "file").send_keys(str(path))
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".totals"))
    totals = browser.find_element(By.CSS_SELECTOR, ".totals").text
    assert totals.startswith("seat 0: ") and "seat 2: " in totals and "side" not in totals
    head = browser.find_element(By.CSS_SELECTOR, ".hand-head").text
    assert "the maker took " in head and "side" not in head
    # another player's drop is the maker's gain: said so, in the totals and a note
    from cinch_sim.api import solve

    h = solve(str(path)).hands[0]
    for seat in range(3):
        to = "given away" if seat == h["maker"] else "given to the maker"
        assert f"seat {seat}: {h['lost'][seat]} point" in totals and to in totals
    notes = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".totals")]
    assert any("the other players together against him" in n for n in notes)


def test_a_partnership_review_names_the_sides_by_their_seats_and_part(browser, tmp_path):
    """The review page: the totals name "the maker's side (seats 0 and 2)" and "the
    defenders", not "side 0"; a refused record says what is wrong in people's words
    first, the record's field path ("tricks[0].cards[1]") after it."""
    import json

    from selenium.webdriver.common.by import By

    from cinch_sim.api import simulate

    path = tmp_path / "one.jsonl"
    simulate(hands=1, seed=3, records=str(path), threads=1)
    rec = json.loads(path.read_text().splitlines()[0])
    browser.set_window_size(1400, 1600)
    browser.get(browser.base + "/review")
    browser.find_element(By.ID, "file").send_keys(str(path))
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".totals"))
    totals = browser.find_element(By.CSS_SELECTOR, ".totals").text
    ours, theirs = ("0 and 2", "1 and 3") if rec["maker"] % 2 == 0 else ("1 and 3", "0 and 2")
    assert totals.startswith(("the maker's side", "the defenders")) and "side 0" not in totals
    assert f"the maker's side (seats {ours}): " in totals
    assert f"the defenders (seats {theirs}): " in totals
    head = browser.find_element(By.CSS_SELECTOR, ".hand-head").text
    assert f"maker seat {rec['maker']}, bid {rec['bid']}" in head
    plays = browser.find_elements(By.CSS_SELECTOR, ".play small")
    assert any("(a defender)" in p.text for p in plays)
    assert any("(the maker's side)" in p.text for p in plays)
    # two cards of the first trick swapped: the second player plays the third's card
    cards = rec["tricks"][0]["cards"]
    cards[1], cards[2] = cards[2], cards[1]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    browser.find_element(By.ID, "file").send_keys(str(bad))
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".hand .error"))
    error = browser.find_element(By.CSS_SELECTOR, ".hand .error").text
    assert error.startswith("line 1: invalid: trick 1: seat "), error
    assert error.endswith("; record field tricks[0].cards[1]"), error


@pytest.mark.slow  # 3.4 s
def test_a_call_left_out_is_named_as_played_by_its_bidder(browser):
    """Seat 2 given only seat 0's 7: seat 1's call is made by its bidder on each deal,
    and the status says so (the page answered as if every call had been given)."""
    _advise_on_page(browser, 1400, "standard", HAND, seat="2", dealer="3", bids="0:7")
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    status = _text(browser, "status")
    assert status.startswith("no bid given for seat 1: on each deal it bids as the bots would; ")
    _advise_on_page(browser, 1400, "standard", HAND, seat="2", dealer="3", bids="0:7,1:pass")
    _wait(browser, lambda d: "(final)" in _text(d, "status"))
    assert "no bid given" not in _text(browser, "status")


@pytest.mark.slow  # about 20 s: PIMC's stages until the time limit
def test_a_stage_past_the_time_limit_leaves_the_answer_before_it(browser):
    """PIMC's last stage runs past a server's 20 s limit: the earlier stage's answer, its
    chart and table stay, and the status says the query stopped (the page cleared it)."""
    with running(workers=2, time_limit=20) as base:
        browser.set_window_size(1400, 1600)
        browser.get(base + "/")
        _select(browser, "play", "pimc")
        _pick(browser, HAND)
        _wait(browser, lambda d: "stopped" in _text(d, "status") or _text(d, "error"), 60)
        shown = _answer_shown(browser)
        assert _text(browser, "error") == ""
        assert "(stopped: the query ran past its time limit (20 s); " in shown["status"]
        assert "stage 3 of 3" not in shown["status"] and shown["advice"]
        assert shown["chart"] == 1 and shown["rows"] > 5
