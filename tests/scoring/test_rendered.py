"""Replies written for a renderer (HTML fragments, LaTeX) read as the text a reader sees."""

from __future__ import annotations

import asyncio

import pytest

from ragmeter.scoring.crag.rendered import as_rendered
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import Truncator
from ragmeter.types import Question


@pytest.mark.parametrize(
    ("reply", "plain"),
    [
        ("<p>No answer found.</p>", "No answer found."),
        ("<p>It opened on <strong>Sep 14, 1998</strong>.</p>", "It opened on Sep 14, 1998."),
        (
            "<p>Two stations:</p><ul><li>Elm Park</li><li>Riverside</li></ul>",
            "Two stations:\n- Elm Park\n- Riverside",
        ),
        ("<P>AT&amp;T</P>", "AT&T"),
        # One box is the final answer; the working before it stays.
        (
            r"A difference of 4.7. \boxed{4.7\text{ billion USD}}",
            "A difference of 4.7.\nFinal answer: 4.7 billion USD",
        ),
        (r"\boxed{\text{Katherine}, \text{Joseph Baena}}", "Katherine, Joseph Baena"),
        (r"So $\boxed{42}$.", "So\nFinal answer: 42."),
        (r"\[ \boxed{12\%} \]", "12%"),
        # A box cut off by the 75-token limit holds what stands before the cut.
        (r"It lists Bret Taylor. \boxed{\text{Bret", "It lists Bret Taylor.\nFinal answer: Bret"),
        # Several boxes are read where they stand, with what joins them.
        (r"It is \boxed{A} or \boxed{B}.", "It is A or B."),
        ("It costs \\$5, 10\\% more.", "It costs $5, 10% more."),
        # Wikitext: links as their shown text, footnotes and maintenance tags away.
        (
            "''[[Interstellar (film)|Interstellar]]'' won.<ref name=\"d1\" />{{dubious}}",
            "Interstellar won.",
        ),
        ("<!-- No source found for a Metz match today. -->", ""),
        (
            "{{As of|2023}}, [[Amazon]] had US$574.8 billion.",
            "As of 2023, Amazon had US$574.8 billion.",
        ),
        # Speech markup: the voice's tags read away, a synthesiser's date as an ISO date.
        (
            '<speak>Born on <say-as interpret-as="date">19390710</say-as>, in Chicago.</speak>',
            "Born on 1939-07-10, in Chicago.",
        ),
        (
            '<speak>On <say-as interpret-as="date" format="mdy">07101939</say-as>.</speak>',
            "On 1939-07-10.",
        ),
        (
            '<speak><prosody rate="slow">I do not know.</prosody><break time="1s"/></speak>',
            "I do not know.",
        ),
        (
            '<speak>It has <say-as interpret-as="cardinal">12</say-as> seats.</speak>',
            "It has 12 seats.",
        ),
        # No markup of a renderer: the reply as it is, other tags included.
        ("Paris", "Paris"),
        ("x < 3 and y > 2", "x < 3 and y > 2"),
        ("<answer>5</answer>", "<answer>5</answer>"),
    ],
)
def test_markup_is_read_as_rendered(reply: str, plain: str) -> None:
    assert as_rendered(reply) == plain


def _label(truncator: Truncator, gold: str, reply: str) -> tuple[str, str | None]:
    question = Question(id="q", dataset="t", query="what was its high last week?", answers=[[gold]])
    s = asyncio.run(CragScorer([], truncator=truncator).score(question, reply))
    return s.label, s.rule


def test_rendered_replies_are_scored_as_their_text(truncator: Truncator) -> None:
    assert _label(truncator, "$0.40", "<p>No answer found.</p>") == ("missing", "refusal")
    unknown = r"The quote pages do not show last week's highs. \boxed{\text{unknown}}"
    assert _label(truncator, "$0.40", unknown) == ("missing", "refusal")
    assert _label(truncator, "$0.40", "<p>The high was <strong>$0.40</strong>.</p>")[0] == (
        "correct"
    )
    assert _label(truncator, "$0.40", r"The page gives 0.38. \boxed{0.38}")[0] == "incorrect"


def test_a_slack_bots_mrkdwn_is_read_as_the_channel_shows_it(truncator: Truncator) -> None:
    said = (
        "<@U06QX4K7B2N> The high was *$0.40* on _the Nasdaq_ &amp; OTC.\n"
        "_from <https://example.com/q|Quote &amp; history> and <https://example.com/n|News>_"
    )
    assert as_rendered(said) == (
        "The high was $0.40 on the Nasdaq & OTC.\nSources: Quote & history and News"
    )
    declined = (
        "<@U06QX4K7B2N> I couldn't find that in the pages I can search. You could try asking"
        " in <#C03LM8R2T7Q|research-help>."
    )
    assert as_rendered(declined).endswith("asking in #research-help.")
    assert _label(truncator, "$0.40", said)[0] == "correct"
    assert _label(truncator, "$0.40", declined) == ("missing", "refusal")
    # Angle brackets of other kinds are not Slack's.
    assert as_rendered("a <x> c") == "a <x> c"
