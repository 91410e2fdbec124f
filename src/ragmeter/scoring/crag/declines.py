"""Replies that only decline.

"I could not find any information about Brad Pitt having a hidden pet rabbit." says nothing
about the question's premise (`only_declines`); "The retrieved pages don't settle this, so I
won't guess." says nothing at all but that the system has no answer (`speaks_only_of_itself`).

`only_declines`: to a false-premise question only a reply that points the premise out is
correct; a plain decline is missing. A decline that names what it could not find reads much
like a premise correction ("I couldn't find any film with both, so the answer is zero."), and
the premise judges take one for the other. What tells them apart is a denial of the reply's own: a
decline that stays one sentence and one clause, opens with its decline and goes on to no
"not", "never", "no such", "premise" or "zero" of its own (a pointer to other sources aside:
"Check ligue1.com.") only declines.
"""

from __future__ import annotations

import re

from ragmeter.scoring.normalize import FUNCTION_WORDS, normalize_text
from ragmeter.scoring.refusal import default_detector

__all__ = [
    "ASKS_BACK",
    "answered_from_memory",
    "asked_word",
    "asks_which_is_meant",
    "bare_decline",
    "crude_stem",
    "names_what_is_asked",
    "only_declines",
    "opens_with_absence",
    "speaks_only_of_itself",
    "states_absence",
]

# "Check ligue1.com for the fixture.", "A site like ESPN should have the latest results.",
# "⚽ The Sports tab should have their latest scores!"
_POINTER = re.compile(
    r"(?:^|(?<=[.!?;]))\s*[^\w\s]*\s*(?:please\s+)?(?:check|try|visit|consult|see|look up"
    r"|refer to|a site like|you (?:can|could|may|might) (?:check|try|find|look)"
    r"|for (?:the )?(?:latest|current|live|up-to-date|real-time)"
    r"|[^.!?]{0,60}?\b(?:should|will|would|might|may|can|could) (?:have|show|list|carry)"
    r"(?! been))\b[^.!?]*[.!?]?",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019)]))\s+")
# On normalised text (lower case, no apostrophes: "can't" is "cant"). Negations that
# decline again ("so I cannot confirm that comparison") deny nothing.
_DECLINING_NEGATION = re.compile(
    r"\b(?:cannot|can not|could not|do not|does not|did not|am not|is not|are not|was not"
    r"|cant|couldnt|dont|doesnt|didnt|isnt|arent|wasnt|wont)\s+(?:\w+\s+){0,2}?(?:give|provide"
    r"|confirm|say|tell|find|verify|determine|know|have|see|locate|access|answer|share|report"
    r"|sure|certain|aware|available|able|total|add up|compute|calculate|work out|average)\b"
    # "no pages name ...", "none of the sources mention ...": what its sources lack.
    r"|\b(?:no|none of the|none of my)\s+(?:retrieved\s+|search\s+)?(?:pages?|sources?"
    r"|documents?|results?|passages?|snippets?|records?|articles?)\s+(?:\w+\s+){0,2}?(?:name"
    r"|names|mention|mentions|give|gives|list|lists|link|links|show|shows|say|says|state"
    r"|states|contain|contains|include|includes|cover|covers|turn up|turns up)\b"
)
_DENIAL = re.compile(
    r"\b(?:no|not|never|none|nothing|zero|nobody|neither|nor|false|incorrect|wrong|mistaken"
    r"|untrue|premise|myth|rumou?r|actually|in fact|instead|rather|cant|couldnt|dont|doesnt"
    r"|didnt|isnt|arent|wasnt|werent|hasnt|havent|hadnt|wont)\b"
)
# The decline opens the sentence: "I'm sorry, I couldn't find ...", not "DiDi was delisted,
# so I don't know its P/E ratio."
_OPENING_WORDS = 4
_CLAUSE_WORDS = 3


# "The documents don't include the show's name; they only contain a cookie notice and a
# comment thread.", "The context does not mention a fashion line. It covers her haircare
# brand.": a decline with the sources as its subject, then what they hold instead named by
# topic, says nothing of the premise. ("...; they say the franchise never reached the Finals"
# reports a fact, and is no topic.)
_SOURCES_SUBJECT = re.compile(
    r"\W*(?:the\s+|these\s+|my\s+|our\s+)?(?:retrieved\s+|provided\s+|available\s+|search\s+)?"
    r"(?:documents?|pages?|context|sources?|passages?|knowledge\s+base|results?|articles?"
    r"|files?|references?|snippets?|chunks?|images?|screenshots?)\b",
    re.IGNORECASE,
)
_TOPICS_HELD = re.compile(
    r"\s*(?:but\s+|and\s+)?(?:they|it|these|the\s+(?:documents?|pages?|context|sources?"
    r"|passages?|knowledge\s+base|results?|articles?|files?|images?|screenshots?))\s+(?:only\s+"
    r"|just\s+|instead\s+|mostly\s+|mainly\s+)?(?:contains?|discuss(?:es)?|covers?|includes?"
    r"|mentions?|lists?|shows?(?!\s+that\b)"
    r"|talks?\s+about|focus(?:es)?\s+on|deals?\s+with)\b",
    re.IGNORECASE,
)


# An apology said as a sentence of its own, before the decline it excuses.
_APOLOGY = re.compile(
    r"\W*(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+)?(?:so\s+|very\s+|really\s+|truly\s+)?"
    r"(?:sorry|apologies|my\s+apologies)\W*",
    re.IGNORECASE,
)


def only_declines(reply: str) -> bool:
    """True when ``reply`` is one sentence that opens with a decline and denies nothing."""
    sentences = [s for s in _SENTENCE_END.split(_POINTER.sub(" ", reply).strip()) if s.strip()]
    if len(sentences) > 1 and _APOLOGY.fullmatch(sentences[0]):
        sentences = sentences[1:]  # "Sorry. I cannot find the answer based on the context."
    if sentences and _SOURCES_SUBJECT.match(sentences[0]):
        main, *clauses = sentences[0].split(";")
        if all(_TOPICS_HELD.match(part) for part in [*clauses, *sentences[1:]]):
            sentences = [main]
    if len(sentences) != 1:
        return False
    sentence = sentences[0]
    if any(len(clause.split()) >= _CLAUSE_WORDS for clause in sentence.split(";")[1:]):
        # "The context does not mention them changing their name; the band has performed as
        # Fall Out Boy since 2001.": a clause of its own says what is so instead.
        return False
    norm = normalize_text(sentence)
    found = default_detector().decline(norm)
    if found is None or len(norm[: found.start].split()) > _OPENING_WORDS:
        return False
    return not _DENIAL.search(_DECLINING_NEGATION.sub(" ", norm[found.end :]))


# On normalised text. "We are unable to assess ...", "No source states ...", "ReadTimeout: timed
# out", "Empty DataFrame": what a decline says first, that something is missing.
# "No", "none" and "nothing" count only before what a system looks in ("No source states
# ...", "None of the documents give ..."): "None of the days" and "No, it never aired" answer.
_ABSENCE = re.compile(
    r"\b(?:not|neither|unable|cannot|can not|unknown|unavailable|error|failed|failure"
    r"|timed out|timeout|empty|null|missing|insufficient|unclear|without|lacks?|sorry"
    r"|unfortunately|unanswerable|cant|couldnt|dont|doesnt|didnt|isnt|arent|wasnt|wont)\b"
    r"|\b(?:no|none of(?: the| my| its)?|nothing)\s+(?:\w+\s+){0,2}?(?:sources?|documents?"
    r"|pages?|results?|data|information|info|records?|answer|mention|text|chunks?|passages?"
    r"|evidence|snippets?|articles?|references?|reports?|reporting|figures?|match|matches"
    r"|search|searches|context|details|supporting|relevant|clear)\b"
    # "The text covers the cast and its release.": what the sources hold said in place of
    # the fact asked, which they lack.
    r"|^(?:\w+\s+){0,12}?the\s+(?:text|context|documents?|sources?|passages?|pages?|excerpts?)"
    r"\s+(?:only\s+|mainly\s+|mostly\s+|just\s+)?(?:covers?|discuss(?:es)?|describes?"
    r"|deals?\s+with|focus(?:es)?\s+on|is\s+about|are\s+about)\b"
)
_FIRST_LINE = re.compile(r"\n\s*")


def opens_with_absence(reply: str) -> bool:
    """True when the reply's first sentence (or line) says that something is missing: a
    decline says so up front, while an answer that opens with an odd name ("It is Away.
    Sources do not always agree ...") does not."""
    first = _SENTENCE_END.split(reply.strip(), maxsplit=1)[0]
    first = _FIRST_LINE.split(first, maxsplit=1)[0]
    return bool(_ABSENCE.search(normalize_text(first)))


def states_absence(reply: str) -> bool:
    """True when any sentence of the reply says that something is missing: a decline wrapped
    in a format ('"answer": null, "caveat": "no document gives ..."') or written after its
    working ("Here is my thought process: ... I'm sorry, but the documents don't ...")."""
    return bool(_ABSENCE.search(normalize_text(reply)))


def crude_stem(word: str) -> str:
    """A crude stem, so that "released" meets "release" and "settles" meets "settle"."""
    return re.sub(r"(?:ing|ed|es|s)?e?$", "", word) if len(word) > 4 else word


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# A decline speaks of the system, not of the world: what it knows, what it searched and read,
# what it can say. Every word of one is such a word, a word of the question, or a word with no
# content, whatever its phrasing; a phrase list only ever holds the phrasings seen so far.
_SELF_WORDS = _words(
    """
    know knew known knowledge aware recall remember sure certain certainty confident confidence
    confirm verify find found search look lookup check see come across locate identify
    information info data detail details specifics evidence record records result results
    source sources page pages passage passages document documents context snippet snippets
    article articles excerpt excerpts reference references text material retrieve retrieved
    sentence sentences span spans paragraph paragraphs
    provided available unavailable access reliable reliably accurate accurately definitive
    definitively exact exactly specific specifically clear clearly explicit explicitly direct
    directly enough sufficient insufficient support supporting relevant matching conclusive
    inconclusive definite firm solid basis grounds possible impossible hard difficult
    silent empty withhold withheld decline abstain refrain comment offer return came back
    turn turned up yield read seen saw lack lacking need way help something thing rather
    base database index corpus web internet online tool tools training cutoff match
    useful unknown grounded grounding supported unsupported retrieval returned hit hits matched
    query queries searched searching looked stopped stop iteration iterations limit timeout
    timed out failed error unanswerable abstained null n a agent due number amount
    answer guess speculate settle determine resolve establish say state mention tell show give
    provide indicate report list name cover address contain include
    able unable cannot cant couldnt dont doesnt didnt wont isnt arent wasnt werent not no none
    nothing without any anything beyond
    i im ive id me my we our us you your but however unfortunately sorry afraid
    can could would will should may might must am just only also here there this that these
    so such one either neither nor if whether about regarding on
    current currently latest live real time realtime today now moment right yet
    """
)
# Of those, the words that make a reply about the system: without one ("Strasbourg does not
# have a game today.") a reply of question words and negations states a fact.
_SELF_NOUNS_AND_VERBS = _words(
    """
    know knew known knowledge aware recall remember sure certain confident confirm verify find
    found search lookup locate information info data details evidence records results source
    sources page pages passage passages document documents context snippets articles excerpts
    references retrieved available unavailable access answer guess speculate settle determine
    resolve establish say tell help relevant base database index corpus tools training agent
    iteration iterations query retrieval timeout grounded
    """
)
_SELF_STEMS = frozenset(crude_stem(w) for w in _SELF_WORDS)
_DENIES = _words(
    "not no none nothing cannot cant couldnt dont doesnt didnt wont isnt arent wasnt werent"
    " unable unavailable without insufficient lack lacking stopped failed timeout timed"
)
# "No.", "None.", "Never", "From what I can tell, no.": a verdict or a count as a clause of
# its own.
_VERDICT = re.compile(
    r"(?:^|[,;:\u2014\u2013-])\W*(?:yes|no|none|zero|never|nobody|nothing)\b(?!\s+\w)",
    re.IGNORECASE,
)


def speaks_only_of_itself(query: str, reply: str) -> bool:
    """True when every word of ``reply`` is a word of the question, a word with no content,
    or a word about the system's own knowledge and search, and it denies one of them ("No
    supporting passage found.", "I can't confirm a Fulham game today."): a decline, in words
    no phrase list holds. A figure, a name or any other word the question lacks is content,
    and the reply is judged as an answer."""
    if _VERDICT.search(reply):
        return False
    words = normalize_text(reply).split()
    if not words or not _DENIES & set(words) or not _SELF_NOUNS_AND_VERBS & set(words):
        return False
    asked = {crude_stem(w) for w in normalize_text(query).split()}
    return all(
        w in FUNCTION_WORDS
        or w in _SELF_WORDS
        or crude_stem(w) in _SELF_STEMS
        or asked_word(w, asked)
        for w in words
    )


_SHARED_STEM = 6


def asked_word(word: str, asked: set[str]) -> bool:
    """True when ``word`` is one of the question's, whose crude stems are ``asked`` ("director"
    of "who directed ...?")."""
    stem = crude_stem(word)
    if stem in asked:
        return True
    return len(stem) >= _SHARED_STEM and any(
        len(a) >= _SHARED_STEM and a[:_SHARED_STEM] == stem[:_SHARED_STEM] for a in asked
    )


def names_what_is_asked(query: str, reply: str) -> bool:
    """True when ``reply`` repeats a content word of ``query``: a decline that names what it
    looked for ("... a podcast by Justin Bieber") may be pointing out a false premise."""
    asked = set(normalize_text(query).split()) - FUNCTION_WORDS - _SELF_WORDS
    return bool(asked & set(normalize_text(reply).split()))


# "Do you mean the 2023 remake or the 1998 original?", "Which 'Save Me' do you mean - ...?":
# a reply that opens by asking back answers nothing yet.
_QUESTION_BACK = re.compile(
    r"^\W*(?:(?:do|did)\s+you\s+mean\b|which\b[^?.!]{0,80}?\b(?:do|did)\s+you\s+mean\b"
    r"|(?:could|can|would)\s+you\s+(?:clarify|specify|tell\s+me\s+which)\b"
    r"|which\b[^?.!]{0,80}?\b(?:are\s+you\s+asking\s+about|do\s+you\s+have\s+in\s+mind)\b)"
    r"[^?]*\?",
    re.IGNORECASE,
)


def asks_which_is_meant(reply: str) -> bool:
    """True when ``reply`` opens with a question back about what was asked."""
    return _QUESTION_BACK.match(reply) is not None


ASKS_BACK = "asks which is meant"
"""The reason `bare_decline` gives for a reply that opens by asking back."""


def bare_decline(query: str, reply: str, *, false_premise: bool) -> str | None:
    """Why ``reply`` declines in words no phrase list holds (it asks back, or speaks only of
    its own search), or None. To a ``false_premise`` question a decline that names what it
    looked for may point the premise out, so it is no bare decline."""
    if asks_which_is_meant(reply):
        return ASKS_BACK
    if speaks_only_of_itself(query, reply) and not (
        false_premise and names_what_is_asked(query, reply)
    ):
        return "speaks only of its own search"
    return None


# "The context does not directly mention his birth date; based on general knowledge, he was
# born in 1948.": the documents are silent, and the reply answers from what the model
# knows. The decline is about the documents; what follows is its answer.
_FROM_MEMORY = re.compile(
    r"(?:^|(?<=[.!?]\s))[^.!?]*?\b(?:not|no)\b[^.!?]*?[,;]\s*(?:but\s+)?(?:based\s+on|from|using)\s+"
    r"(?:my\s+|our\s+)?(?:general|own|background|prior)\s+knowledge\s*,\s*",
    re.IGNORECASE,
)


# "I couldn't find this in the documents, but it is X.", "The sources do not state it
# directly; the answer is X.", "Not stated in the retrieved pages. From memory: X.": a decline
# of the sources, then a short answer that ends the reply, which is what the reply gives. (A
# longer remark after a decline is context: "It's a thinly traded small-cap, so ...".)
_ANSWER_AFTER_DECLINE = re.compile(
    # Not a yes/no answer's own "No, ...".
    r"^(?!\s*(?:no|yes)\b\s*(?:[,.!:;]|$))"
    r"[^.!?;:\n]*?(?:\b(?:not|no|unable|cannot|unfortunately)\b|n[\'\u2019]t\b)[^\n]*?"
    # "...; the answer is X", "... From memory: X": up to sixteen words to the end.
    r"(?:(?:[,;.]|\s[-\u2013\u2014])\s*(?:(?:but|though|however),?\s+)?"
    r"(?:from\s+memory\s*[:,]\s*|(?=the\s+answer\s+(?:is|was)\s))(?=(?:\S+\s+){0,15}\S+\s*$)"
    # "..., but it is X" (up to twelve words), or a last sentence "It was X." (up to six):
    # neither a remark ("It's possible the name is spelled differently.") nor a rough guess
    # ("It was trading around $140"), which stay beside their decline.
    r"|(?:,?\s+(?:but|though|however),?\s+(?=(?:\S+\s+){0,11}\S+\s*$)"
    r"|\.\s+(?=(?:\S+\s+){0,5}\S+\s*$))"
    r"(?=(?:it\s+(?:is|was)|it\'s)\s(?!(?:possible|likely|unlikely|unclear|hard|difficult"
    r"|worth|best|not|also|unknown)\b))"
    r"(?![^\n]*\b(?:around|about|roughly|approximately|nearly|almost|under|over|probably"
    r"|trading)\b))"
    # In one sentence.
    r"(?![^\n]*[.!?]\s+\S)",
    re.IGNORECASE,
)


def answered_from_memory(reply: str) -> str:
    """``reply`` without the decline it opens an answer from memory with ("The context does
    not mention X, but based on general knowledge, Y" -> "Y"; "I couldn't find this in the
    documents, but it is Y." -> "it is Y.")."""
    return _ANSWER_AFTER_DECLINE.sub("", _FROM_MEMORY.sub("", reply), count=1)
