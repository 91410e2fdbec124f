"""Refusal detection: does a prediction say "I don't know" in one of its many phrasings?

A curated phrase set (``data/refusal_phrases.txt``) is matched on word
boundaries after normalisation. A hedged *answer* is not a refusal: when the
refusal phrase is followed by "but / however ..." and an answer marker ("I'm
not sure, but I think it is 42") or preceded by an answer and "but" ("42, but
I'm not sure"), the prediction commits to an answer and is judged as one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ragmeter.scoring.normalize import normalize_text
from ragmeter.scoring.phrases import PhraseMatch, PhraseSet, builtin_phrase_file

__all__ = [
    "COVERS_ONLY_TOPICS",
    "NAMES_ONLY_A_SUBSTITUTE",
    "RefusalDetector",
    "RefusalMatch",
    "covers_only_topics",
    "default_detector",
    "is_refusal",
    "match_refusal",
    "refusal_phrase",
]

_CONNECTORS = frozenset({"but", "however", "although", "though", "yet"})
# After a connector, these words show that an answer follows.
_ANSWER_AFTER = re.compile(
    r"^(?:\S+ ){0,3}?(?:i think|i believe|i guess|i would say|id say|it is|its|it was|it may be"
    r"|it might be|it could be|it should be|probably|likely|possibly|perhaps|maybe"
    r"|my best guess|best guess|answer is|answer may be|approximately|roughly|around|about"
    r"|estimated|\d"
    # "..., but it suggests that ...": what the sources are said to suggest is an answer
    # offered anyway. (What they are said to mention, "but it mentions examples such as
    # ...", is most often other facts, beside the decline.)
    r"|(?:it|they)\s+(?:does\s+|do\s+)?(?:suggests?|indicates?))"
)


# "The documents do not say that the Clippers won the Finals; they say the franchise has
# never reached them": the sources are not silent, they say otherwise than the question's
# claim, which the reply corrects.
_SAID_OTHERWISE = re.compile(
    r"^\s*that\s.*?\b(?:(?:they|it|(?:document|source|passage|result)s?(?:\s\d+)?)"
    r"\s+(?:says?|shows?|describes?|lists?|mentions?|states?|puts?)|according\s+to\s+(?:it|them))\b"
)


_OPENS_WITH_YES_NO = re.compile(
    r"^\W*(?:(?:yes|no)\s*[.!]|(?:none|zero)\s*[.!:;]\s*\S)", re.IGNORECASE
)
# "... was released under its original title; I'm not aware of a different one.": not
# knowing of another says there is none, after an answer that gives the one.
_NO_OTHER = re.compile(
    r"^\s*(?:(?:a|an|any)\s+)?(?:different|other|another|alternative|earlier|separate|prior)\b"
)


# "The provided context does not clearly state who ...", "The documents don't identify which
# ...": what the system read says nothing on the question. Its sources, a verb of telling and
# "not" say so in more combinations than a phrase list can hold.
_TELLING_ADVERB = r"(?:(?:clearly|explicitly|directly|specifically|actually|even) )?"
_TELLING = (
    r"(?:say|state|mention|identify|name|list|give|provide|contain|include|specify|report|show"
    r"|indicate|reveal|disclose|cover|address|confirm|establish|answer|tell|detail|record"
    r"|break down|settle|determine|resolve)"
)
_SILENT_SOURCES = re.compile(
    r"(?<!\S)(?:context|documents?|sources?|references?|passages?|snippets?|search results"
    r"|excerpts?|retrieved (?:text|pages?|data)|provided (?:text|data)|filings?|articles?|pages"
    # A visual reader's page screenshots: "The images do not show ...".
    r"|images|screenshots"
    r"|what i (?:found|read|saw|retrieved|could find))"
    r" (?:(?:do|does|did) not|dont|doesnt|didnt) " + _TELLING_ADVERB + _TELLING + r"(?!\S)"
)
# "None of the sources I retrieved give a date of birth for ...", "No retrieved authority
# addresses ...": the same, said of each.
_NONE_OF_THE_SOURCES = re.compile(
    # "None of the five pages give ...": how many it read says nothing of the answer.
    r"(?<!\S)(?:none of the (?:(?:two|three|four|five|six|seven|eight|nine|ten|\d{1,2}) )?"
    r"(?:sources|documents|passages|snippets|search results|results|evidence"
    r"|excerpts|articles|pages|authorities|images|screenshots)"
    r"(?: (?:i|we) (?:retrieved|found|read|searched|checked|saw))?"
    # "No retrieved authority addresses the number of ...": a brief's way of saying it.
    r"|^no (?:retrieved |provided |cited |available )?(?:source|document|passage|authority"
    r"|article|page|record|result))"
    r" " + _TELLING_ADVERB + r"(?:identifies|specifies|" + _TELLING + r"(?:e?s)?)(?!\S)"
)
# "No supporting passage found.", "no relevant documents were retrieved": the search came
# back empty; "..., so I won't guess": the system says it will not answer without support.
_NOTHING_FOUND = re.compile(
    r"(?<!\S)(?:no (?:supporting|relevant|matching) (?:passages?|documents?|evidence|sources?"
    r"|results?|information|pages?|records?) (?:(?:was|were) )?(?:found|retrieved|returned)"
    # "Neither search turned up the director.", "The searches didn't turn up ...": an
    # active-retrieval model's report that its lookups found nothing.
    r"|(?:neither|no|none of the) (?:search|searches|lookups?|queries|query|retrievals?)"
    r" (?:turned|turns) up"
    r"|(?:search|searches|lookups?|queries|query) (?:did not|didnt|does not|doesnt) turn up"
    r"|i (?:wont|will not|would rather not|prefer not to|am not going to|im not going to)"
    r" (?:guess|speculate))(?!\S)"
)


# "I can't compute the average", "so I can't tell you its closing price", "Sorry, I couldn't
# dig up ...", "I couldn't get a reliable quote", "I don't have KRKR's volume from the last
# session handy, sorry!": the system says it cannot do what was asked, in more combinations
# of "cannot" and a verb than a list holds.
_CANNOT = re.compile(
    r"(?<!\S)i (?:(?:cannot|cant|can not|could not|couldnt|am unable to|im unable to"
    r"|am not able to|im not able to|was unable to|was not able to|wasnt able to)"
    r" (?:(?:reliably|confidently|accurately|definitively|precisely|really) )?"
    r"(?:give|tell|say|compute|calculate|determine|identify|name|list|confirm|provide|point to"
    r"|pin down|find|verify|answer|work out|figure out|pinpoint|state|report|look up"
    r"|access|check|pull up|dig up|track down|fetch|retrieve|locate|bring up|match|get"
    r"|put together|come up with)"
    r"|(?:dont|do not) (?:\S+ ){0,3}?(?:have|know) (?:\S+ ){0,5}?(?:data|figures?|numbers?"
    r"|prices?|quotes?|prints?|records?|stats|statistics|information|info|details|results|totals"
    r"|dates?|volumes?"
    r"|lists?|breakdowns?|counts?|access)"
    r"|(?:dont|do not) have (?:\S+ ){1,16}?(?:handy|on hand|at hand|to hand|sorry)"
    # "I don't see a Thunder game on October 13 in the provided records"
    r"|(?:dont|do not|cannot|cant|couldnt|could not) see (?:\S+ ){1,10}?(?:in|on|among) (?:the )?"
    r"(?:provided |retrieved )?(?:records|documents|pages|sources|context|data|results|schedule))"
    r"(?!\S)"
)


# "... so his average earnings can't be determined from the available information": what was
# asked said to be beyond reach, in the passive.
_BEYOND_REACH = re.compile(
    r"(?<!\S)(?:cannot|cant|can not|could not|couldnt) be (?:determined|calculated|computed"
    r"|confirmed|answered|verified|worked out)(?!\S)"
)


# "Today's opening price for WIRE is not available", "there is no closing price available for
# SFWL": the figure asked for is said to be missing from what was read.
_DATA = (
    r"(?:prices?|data|figures?|quotes?|volumes?|records?|information|info|details|results"
    r"|statistics|stats|numbers?|counts?|totals?|dates?|scores?)"
)
_UNAVAILABLE = re.compile(
    rf"(?<!\S)(?:{_DATA} (?:\S+ ){{0,8}}?(?:is|are|was|were) (?:not |un)available"
    rf"|(?:there (?:is|are|was|were) )?no (?:\S+ ){{0,4}}?{_DATA} (?:\S+ ){{0,2}}?available)(?!\S)"
)


# "Abstained: this needs live market data ...", "No answer: confidence 0.19 is under the
# cutoff", "Confidence below threshold - no answer returned.", "n/a - the UFC doesn't disclose
# fighter pay", "Unclear. The retrieved reports cover ...", "No data. ...", "no result",
# "lookup failed": a service that abstains says so first (a lookup that found nothing says it
# in a database's words), or says that no answer was returned.
_ABSTAINS = re.compile(
    r"^(?:abstain(?:ed|ing|s)?|no answer|n a|no data|unclear|no (?:results?|records?)"
    r"(?: found| returned)?|(?:lookup|query|search) (?:failed|returned nothing)"
    r"|no candidates? (?:above|over|meets|meeting) (?:the )?(?:threshold|cutoff))(?!\S)"
    r"|(?<!\S)no answer (?:returned|given|provided)(?!\S)"
)


@dataclass(frozen=True)
class RefusalMatch:
    """Why a prediction counts as a refusal."""

    phrase: str
    """The phrase of the set that matched, as written in the phrase file."""
    whole: bool
    """True when the whole prediction is the phrase (no other content at all)."""


# "The text covers Gen Digital's quarterly revenue and its dividend.": what the sources hold,
# said in place of the fact asked, which they lack. Every sentence of such a reply says so.
_SOURCES_COVER = re.compile(
    r"\W*(?:they|(?:the\s+|these\s+)?(?:retrieved\s+|provided\s+)?(?:text|context|documents?"
    r"|sources?|passages?|pages?|excerpts?|images?))\s+(?:only\s+|mainly\s+|mostly\s+|just\s+)?"
    r"(?:covers?|discuss(?:es)?|describes?|deals?\s+with|focus(?:es)?\s+on|(?:is|are)\s+about)\b",
    re.IGNORECASE,
)
_SENTENCE_BREAK = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019)]))\s+|\n+")
# "..., but none mentions a podcast, and Bieber is a man": a clause that says more.
_FURTHER_CLAUSE = re.compile(r";|\b(?:but|however|although|though|while|yet|whereas)\b", re.I)
COVERS_ONLY_TOPICS = "says only what its sources cover"


# "The nearest is global venture funding of about $445 billion across all sectors.", "`pages/
# 3.html:214` gives only global M&A for 2023.", "The provided text only gives his birth
# year, 1948.": what the sources hold in place of the fact asked, offered as not being it.
# ("It only has three seasons" answers: the sources must be the subject.)
_NEAREST = re.compile(
    r"\W*(?:the\s+)?(?:nearest|closest)\b(?:\s+[\w-]+){0,3}?\s+(?:is|was|are|were)\s",
    re.IGNORECASE,
)
_HOLD_ONLY = re.compile(
    r"\W*(?:(?:the\s+|these\s+)?(?:retrieved\s+|provided\s+)?(?:text|context|documents?"
    r"|sources?|passages?|pages?|excerpts?)|`[^`\n]+`|document\s+\d+)\s+"
    r"(?:only\s+(?:gives?|lists?|shows?|has|have|mentions?|states?|covers?)"
    r"|(?:gives?|lists?|shows?|mentions?|states?|covers?)\s+only)\s",
    re.IGNORECASE,
)
NAMES_ONLY_A_SUBSTITUTE = "declines, and names only what is nearest instead"


def covers_only_topics(text: str) -> bool:
    """True when every sentence of ``text`` says what its sources cover ("The text covers the
    cast and its release by October Films."): it states nothing of the world."""
    sentences = [s for s in _SENTENCE_BREAK.split(text.strip()) if s.strip()]
    return bool(sentences) and all(
        (_SOURCES_COVER.match(s) or _HOLD_ONLY.match(s)) and not _FURTHER_CLAUSE.search(s)
        for s in sentences
    )


def _parts(text: str) -> list[str]:
    return [p for s in _SENTENCE_BREAK.split(text.strip()) for p in s.split(";") if p.strip()]


class RefusalDetector:
    """Phrase-based refusal detector with hedged-answer exceptions."""

    def __init__(self, phrases: PhraseSet):
        self.phrases = phrases

    @classmethod
    def from_file(cls, path: str | Path) -> RefusalDetector:
        """A detector over a custom phrase file (same format as the built-in one)."""
        return cls(PhraseSet.from_file(path))

    def decline(self, norm: str) -> PhraseMatch | None:
        """Where normalised text declines: a listed phrase, else a decline in the system's own
        words; hedged answers and verdicts around it are not looked at."""
        return self.phrases.search_normalized(norm) or _declined_in_own_words(norm)

    def match(self, text: str) -> RefusalMatch | None:
        """The refusal found in ``text``, or None when it answers (or is empty)."""
        norm = normalize_text(text)
        if not norm or _OPENS_WITH_YES_NO.match(text):
            # "Yes. As far as I can find, it kept that title; I couldn't find another.", "None:
            # I couldn't find any film with both.": a reply that opens with its verdict
            # answers, whatever it adds.
            return None
        if covers_only_topics(text):
            return RefusalMatch(phrase=COVERS_ONLY_TOPICS, whole=True)
        parts = _parts(text)
        if (
            len(parts) > 1
            and all(_NEAREST.match(p) or _HOLD_ONLY.match(p) for p in parts[1:])
            and self.match(parts[0]) is not None
        ):
            # "Not in the pages. The nearest is the discography listing Vultures 1 as released
            # February 10, 2024": the decline stands; what it names instead is not offered as
            # the answer, so its figures are no guess.
            return RefusalMatch(phrase=NAMES_ONLY_A_SUBSTITUTE, whole=False)
        found = self.phrases.search_normalized(norm)
        unlisted = found is None
        found = found or _declined_in_own_words(norm)
        if found is None:
            return None
        if not found.whole and _hedged_answer(norm, found.start, found.end):
            return None
        if _SAID_OTHERWISE.match(norm[found.end :]):
            return None
        if (
            found.start > 0
            and (unlisted or found.phrase.endswith("aware of"))
            and _NO_OTHER.match(norm[found.end :])
        ):
            # "... and my sources don't show an earlier title": none other, after an answer.
            return None
        return RefusalMatch(phrase=found.phrase, whole=found.whole)


# A rough figure or a likely pick beside "I can't give the exact number" is a guess, for the
# rules on guesses to judge ("I don't have exact data; it typically trades 2-4 million").
_GUESSING = re.compile(
    r"(?<!\S)(?:probably|likely|roughly|around|about|approximately|estimated?|guess|typically"
    r"|usually|well (?:under|over|below|above)|i (?:believe|think)|my best|most likely|perhaps"
    r"|maybe|seems?|appears?)(?!\S)"
)


def _declined_in_own_words(norm: str) -> PhraseMatch | None:
    """A decline no listed phrase holds, as a phrase match: sources said to be silent on the
    question, an abstention, or the system saying it cannot give what was asked while it
    guesses nothing."""
    m = (
        _SILENT_SOURCES.search(norm)
        or _NONE_OF_THE_SOURCES.search(norm)
        or _ABSTAINS.search(norm)
        or _NOTHING_FOUND.search(norm)
    )
    if m is None and not _GUESSING.search(norm):
        m = _CANNOT.search(norm) or _UNAVAILABLE.search(norm) or _BEYOND_REACH.search(norm)
    if m is None:
        return None
    return PhraseMatch(
        phrase=m.group(0), start=m.start(), end=m.end(), normalized=norm, whole=m.group(0) == norm
    )


_NEGATIONS = frozenset(["not", "no", "never", "nothing", "none"])
_BEST_GUESS = re.compile(r"(?<!\S)best guess(?!\S)")


# "I apologize, but I couldn't find ...", "Sorry but ...": an apology before the connector is
# no answer that the decline qualifies.
_APOLOGY_WORDS = frozenset(
    [
        *("i", "im", "am", "we", "are", "so", "very", "really", "truly", "deeply", "terribly"),
        *("sorry", "apologize", "apologise", "apologies", "my", "our", "unfortunately", "afraid"),
        *("regret", "regretfully", "sadly", "oh", "hmm", "well", "ah", "alas"),
    ]
)


_DETERMINERS = frozenset(["the", "my", "our", "this", "these", "its", "their", "your"])
_CONCESSIONS = frozenset(["though", "although"])


def _hedged_answer(norm: str, start: int, end: int) -> bool:
    """True when the text around a refusal phrase still commits to an answer."""
    before = norm[:start].split()
    # "X, though the context does not state this": a concession after an answer may stand
    # before the phrase's own article ("..., but the references do not say" declines).
    bare = list(before)
    while bare and bare[-1] in _DETERMINERS:
        bare.pop()
    if len(bare) < len(before) and len(bare) >= 2 and bare[-1] in _CONCESSIONS:
        return True
    if len(before) >= 2 and before[-1] in _CONNECTORS:
        return not set(before[:-1]) <= _APOLOGY_WORDS
    if _BEST_GUESS.search(norm, end):
        # "Abstained (0.24). Best guess: X-Men.": the guess is its answer, for the rules on
        # hedges to judge.
        return True
    after = norm[end:].split()
    for i, word in enumerate(after):
        if word in _CONNECTORS:
            rest = " ".join(after[i + 1 :])
            # "..., but not its most recent game": what follows "but not" is left out; "...
            # but list no 2001 release" names the question's year, denied, as no answer.
            answer = _ANSWER_AFTER.match(rest)
            if answer is not None and not _NEGATIONS & set(answer.group(0).split()):
                return True
    return False


@lru_cache(maxsize=1)
def default_detector() -> RefusalDetector:
    """The detector over the built-in phrase set."""
    return RefusalDetector(PhraseSet.from_file(builtin_phrase_file("refusal_phrases.txt")))


def match_refusal(text: str) -> RefusalMatch | None:
    """The refusal found by the built-in detector, or None."""
    return default_detector().match(text)


def refusal_phrase(text: str) -> str | None:
    """The built-in phrase that makes ``text`` a refusal, or None."""
    m = match_refusal(text)
    return m.phrase if m else None


def is_refusal(text: str) -> bool:
    """True when ``text`` says it has no answer ("I don't know", "no answer is available"...)."""
    return match_refusal(text) is not None
