"""How the tables and the report name the sides and the Pedros of a game.

Plain words from the rules and the counts, without pandas, so that the command
line can say them before (or without) building a DataFrame. In cut-throat every
other player is an opponent of the maker: what a partnership game gives the
defenders is the *other players'* in a split that adds up, and the *average
opponent's* in a mean (``opponent_share``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cinch_sim import notation as N

if TYPE_CHECKING:
    from cinch_sim.analysis.counts import HandCounts


# The report (cinch_sim/report/sections.py) words these the same way.
def opponent_share(counts: HandCounts) -> int:
    """What the defenders' total is divided by: 1 in a partnership game, in cut-throat the
    number of the maker's opponents (their average is one player's value)."""
    return 1 if counts.partnerships else counts.players - 1


def makers(partnerships: bool) -> str:
    """Whose points a contract's are: the maker's side, or in cut-throat the maker."""
    return "the maker's side" if partnerships else "the maker"


# under a make rate by bid: a player reads a rate that rises with the bid as "higher
# bids are safer"; each row is the hands the bidder chose that bid with
CHOSEN_BIDS_NOTE = (
    "Each row holds only the hands on which the bidder chose that bid: a high "
    "bid comes from a hand strong enough for it, so the rate need not fall as the bid "
    "rises."
)


def side_columns(counts: HandCounts) -> tuple[str, str]:
    """The stems of a split's two columns (who took a Pedro, points per hand): the
    bidding side and the defenders, or in cut-throat the maker and the other players."""
    return ("bidding_side", "defenders") if counts.partnerships else ("maker", "other_players")


def mean_columns(counts: HandCounts) -> tuple[str, str]:
    """The stems of a mean's two columns (score change by bid): the bidding side and the
    defenders, or in cut-throat the maker and the average opponent."""
    return ("bidding_side", "defenders") if counts.partnerships else ("maker", "average_opponent")


def side_labels(counts: HandCounts) -> tuple[str, str]:
    """``side_columns`` as people write them: 'bidding side', 'other players'."""
    return tuple(N.heading(c) for c in side_columns(counts))


def mean_labels(counts: HandCounts) -> tuple[str, str]:
    """``mean_columns`` as people write them: 'bidding side', 'average opponent'."""
    return tuple(N.heading(c) for c in mean_columns(counts))


def pedro_names(rules) -> list[str]:
    """The rules' Pedros by their own names: ['Right Pedro', 'Left Bower'] in all_hands."""
    return [N.label(name) for name, _ in rules.pedros]


def all_pedros(rules) -> bool:
    """Whether the rules' Pedro cards are two or more, and each of them a Pedro (not the
    Left Bower of all_hands): then they are 'the Pedros'."""
    names = pedro_names(rules)
    return len(names) > 1 and all(n.endswith("Pedro") for n in names)


def pedros_phrase(rules) -> str:
    """'the Pedros', 'the Right Pedro' (one Pedro), 'the Right Pedro and the Left Bower'."""
    names = [f"the {n}" for n in pedro_names(rules)]
    if all_pedros(rules) or not names:
        return "the Pedros"
    return N.joined(names)


def pedro_noun(rules) -> str:
    """One of the rules' Pedro cards, said in general: 'Pedro', 'card' where one is the
    Left Bower, or the one card's name."""
    names = pedro_names(rules)
    if len(names) == 1:
        return names[0]
    return "Pedro" if all_pedros(rules) else "card"


def captured_names(rules) -> list[str]:
    """The cards the capture tables follow, by their own names: the Pedros, then
    Sancho and Dom where the game has them (``Rules.key_cards``)."""
    return [N.label(name) for name, _ in rules.key_cards]


def only_pedros_captured(rules) -> bool:
    """Whether the capture tables follow 'the Pedros' and nothing else."""
    return all_pedros(rules) and len(rules.key_cards) == len(rules.pedros)


def key_card_phrase(rules, name: str) -> str:
    """One key card as a sentence names it: 'the Right Pedro', 'the Left Bower', but
    'Sancho' and 'Dom', names of their own."""
    pedro = any(name == n for n, _ in rules.pedros)
    return f"the {N.label(name)}" if pedro else N.label(name)


def capture_phrase(rules) -> str:
    """'the Pedros'; 'the Pedros and Sancho'; 'the Right Pedro, Sancho and Dom'; 'the
    Right Pedro and the Left Bower'."""
    pedros = {name for name, _ in rules.pedros}
    more = [key_card_phrase(rules, n) for n, _ in rules.key_cards if n not in pedros]
    return N.joined([pedros_phrase(rules), *more])


def capture_each(rules) -> str:
    """The capture charts' cards one by one: 'each Pedro', else ``capture_phrase``."""
    return "each Pedro" if only_pedros_captured(rules) else capture_phrase(rules)


def capture_subject(rules) -> str:
    """The capture tables' subject: 'Pedro capture', or 'Capture of the Pedros and
    Sancho' where not only Pedros are followed."""
    return "Pedro capture" if only_pedros_captured(rules) else f"Capture of {capture_phrase(rules)}"


def capture_noun(rules) -> str:
    """One card the capture tables follow, said in general (``pedro_noun``; 'card'
    where Sancho or Dom is among them)."""
    return pedro_noun(rules) if len(rules.key_cards) == len(rules.pedros) else "card"


def after_the_draw(rules) -> str:
    """' after the draw' (' after the widows'), or nothing where there is no draw (who
    held a card: as dealt): ``Rules.draw_name``."""
    return f" after {rules.draw_name}" if rules.draw else ""


def copies_note(rules, each: str = "row") -> str:
    """With two decks the Pedro tables follow the copy of each card played first
    (docs/rules.md §3.4): the words that say so of ``each`` row (bar), or nothing."""
    return f"with two decks each {each} follows the copy played first" if rules.decks > 1 else ""


def pedro_capture_title(rules, by_trick: bool = False) -> str:
    """The Pedro capture tables' title: 'Pedro capture by holder after the draw' in the
    standard game, in all_hands 'Capture of the Right Pedro and the Left Bower ...'."""
    title = capture_subject(rules)
    title += " by holder and trick (1 = first)" if by_trick else " by holder"
    title += "" if by_trick else after_the_draw(rules)
    note = copies_note(rules)
    return title + (f"; {note}" if note else "")
