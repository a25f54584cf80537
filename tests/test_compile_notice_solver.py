"""The solver's compile notice (``jit.notice.first_compile``): said only when the code
is still compiling past the wait, then how long it took; never for a cache load."""

from __future__ import annotations

import logging
import time

import pytest

from cinch_sim.jit import notice


@pytest.fixture
def said(monkeypatch, caplog):
    monkeypatch.setattr(notice, "NOTICE_AFTER", 0.05)
    caplog.set_level(logging.INFO, logger="cinch_sim")
    return caplog


def test_a_long_compile_is_announced_and_timed(said):
    with notice.first_compile("the double-dummy solver", lambda: True):
        time.sleep(0.3)
    messages = [r.getMessage() for r in said.records]
    assert messages[0].startswith("compiling the double-dummy solver: the first run does it")
    assert messages[1].startswith("compiled the double-dummy solver in ")
    assert len(messages) == 2


def test_a_load_or_a_slow_first_hand_says_nothing(said):
    with notice.first_compile("the double-dummy solver", lambda: False):  # loaded: no compile
        time.sleep(0.3)
    with notice.first_compile("the double-dummy solver", lambda: True):  # done before the wait
        pass
    time.sleep(0.1)
    assert not said.records
