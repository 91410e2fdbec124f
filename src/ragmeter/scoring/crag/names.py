"""One name written two ways: "MrBeast" / "Mr. Beast", "Manchester Utd" / "Manchester
United", "MIT" / "Massachusetts Institute of Technology", "USA" / "the United States".

Real answers name the gold's entity in another spelling far more often than they
name another entity that happens to share its letters; each check below asks for
the whole name to agree (every word, or every initial), never a part of it.
"""

from __future__ import annotations

from ragmeter.scoring.normalize import tokens

__all__ = [
    "CODES",
    "acronym_of",
    "is_place",
    "name_tokens",
    "named_by_initial",
    "named_within",
    "same_name",
]

_ABBREVIATIONS = {
    "utd": "united",
    "st": "saint",
    "mt": "mount",
    "ft": "fort",
    "intl": "international",
    "univ": "university",
    "assn": "association",
    "bros": "brothers",
    "jr": "junior",
    "sr": "senior",
}

# Words an acronym usually skips ("Massachusetts Institute of Technology" is MIT).
_ACRONYM_SKIP = frozenset(["of", "the", "and", "for", "de", "la", "a", "an", "in", "on", "at"])

# Short codes CRAG's golds use (from its knowledge graph): countries, languages, results.
CODES: dict[str, frozenset[str]] = {
    k: frozenset(v.split("|"))
    for k, v in {
        "us": "united states|usa|america|american|u s",
        "usa": "united states|america|american|us",
        "uk": "united kingdom|britain|great britain|british|england|english",
        "gb": "united kingdom|britain|great britain|british",
        "en": "english",
        "es": "spain|spanish",
        "fr": "france|french",
        "de": "germany|german",
        "it": "italy|italian",
        "pt": "portugal|portuguese",
        "ja": "japanese",
        "jp": "japan|japanese",
        "ko": "korean",
        "kr": "south korea|korea|korean",
        "zh": "chinese|mandarin",
        "cn": "china|chinese",
        "hi": "hindi",
        "ru": "russia|russian",
        "ca": "canada|canadian",
        "au": "australia|australian",
        "mx": "mexico|mexican",
        "in": "india|indian",
        "br": "brazil|brazilian",
        "w": "win|won|wins|victory|beat|defeated",
        "l": "loss|lost|lose|defeat|defeated by|beaten",
        "d": "draw|drew|tie|tied",
        "away": "on road|away from home|road game|away game",  # "the" is no token
    }.items()
}
"""Each code with the words that name it; a name's alias in another script of the same
table is not listed (a country's code names the country, not its neighbour)."""


def name_tokens(text: str) -> list[str]:
    """Normalised tokens with common abbreviations written out ("utd" -> "united")."""
    return [_ABBREVIATIONS.get(t, t) for t in tokens(text)]


def acronym_of(words: list[str]) -> str:
    """The initials of ``words``, skipping the little words acronyms skip."""
    return "".join(w[0] for w in words if w not in _ACRONYM_SKIP and w[0].isalpha())


def _is_acronym(short: list[str], long: list[str]) -> bool:
    if len(short) != 1 or len(long) < 2:
        return False
    word = short[0]
    return 2 <= len(word) <= 6 and word.isalpha() and word == acronym_of(long)


def _is_code(a: str, b_words: list[str]) -> bool:
    names = CODES.get(a)
    return names is not None and " ".join(b_words) in names and len(a) > 1


_MAX_NAME_WORDS = 6


def _singular(words: list[str]) -> list[str]:
    """Words with a plural "s" dropped ("marianas trench" / "mariana trench", "joules")."""
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]


def _without_initials(words: list[str]) -> list[str]:
    return [w for w in words if len(w) > 1 or w.isdigit()]


def _short_first_name(short: list[str], full: list[str]) -> bool:
    # "Alex Albon" for "Alexander Albon": the same family name, the first name cut short.
    return (
        2 <= len(short) == len(full) <= 3
        and short[1:] == full[1:]
        and len(short[0]) >= 3
        and len(full[0]) > len(short[0])
        and full[0].startswith(short[0])
        and short[0].isalpha()
    )


def same_name(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are one name: the same words (a plural "s" or a middle
    initial aside), the same letters without spaces, abbreviations written out, one the
    acronym of the other, or a country code and the country's name."""
    ta, tb = name_tokens(a), name_tokens(b)
    if not ta or not tb:
        return False
    if ta == tb:
        return True
    if max(len(ta), len(tb)) > _MAX_NAME_WORDS:
        return False  # a sentence is no name: "investment" cut from "investments" is not it
    if "".join(ta) == "".join(tb) or _singular(ta) == _singular(tb):
        return True
    # "John Clauser" for "john f clauser": a middle initial left out.
    fa, fb = _without_initials(ta), _without_initials(tb)
    if len(fa) >= 2 and fa == fb:
        return True
    if _short_first_name(fa, fb) or _short_first_name(fb, fa):
        return True
    if _is_acronym(ta, tb) or _is_acronym(tb, ta):
        return True
    if _is_code(" ".join(ta), tb) or _is_code(" ".join(tb), ta):
        return True
    # "Wrangell-St. Elias" for "wrangell-st. elias national park & preserve": the same name
    # without the words that only say what kind of place it is.
    ba, bb = _without_designator(ta), _without_designator(tb)
    dropped = len(ta) + len(tb) - len(ba) - len(bb)
    # One name word left needs two designators dropped: "Yellowstone" for "yellowstone
    # national park", not "Columbia" for "columbia river".
    return bool(ba) and ba == bb and (len(ba) >= 2 or dropped >= 2) and dropped > 0


_DESIGNATOR_WORDS = "national park parks preserve reserve and river"
_DESIGNATORS = frozenset(_DESIGNATOR_WORDS.split())


def _without_designator(words: list[str]) -> list[str]:
    """``words`` without the designators they end with ("... national park and preserve")."""
    end = len(words)
    while end > 0 and words[end - 1] in _DESIGNATORS:
        end -= 1
    return words[:end]


def named_within(text: str, name: str) -> bool:
    """True when some run of ``text``'s words is ``name`` in another spelling ("the Mariana
    Trench, which reaches ..." names "marianas trench"); a name of more than a few words is
    not looked for."""
    target = name_tokens(name)
    if not target or len(target) > _MAX_NAME_WORDS:
        return False
    words = name_tokens(text)
    # About as many words as the name, and one word only for a one-word name: a single word
    # may be a longer name's acronym by chance ("at" for "anna thomson").
    for size in range(max(min(2, len(target)), len(target) - 1), len(target) + 2):
        for start in range(len(words) - size + 1):
            if same_name(" ".join(words[start : start + size]), name):
                return True
    return False


def named_by_initial(text: str, name: str) -> bool:
    """True when ``text`` names a person's ``name`` as results tables and tickers print it,
    the first name as its initial ("E. Haaland" for "erling haaland"). Weaker than
    `same_name`: "J. Smith" may be Jane as well as John, so this only tells a judge that the
    name is there, it settles nothing."""
    target = name_tokens(name)
    if not 2 <= len(target) <= 3 or len(target[0]) < 2 or len(target[-1]) < 3:
        return False
    words = name_tokens(text)
    n = len(target)
    return any(
        words[i] == target[0][0] and words[i + 1 : i + n] == target[1:]
        for i in range(len(words) - n + 1)
    )


# Countries and U.S. states that follow a city to say where it is ("los angeles, usa",
# "austin, texas"): with one, two parts between commas are one place, not a list.
_PLACE_LINES = (
    "usa|us|u s|united states|united states of america|america|uk|united kingdom|england",
    "scotland|wales|ireland|canada|australia|new zealand|france|germany|italy|spain|portugal",
    "japan|china|india|mexico|brazil|argentina|russia|south korea|korea|netherlands|belgium",
    "switzerland|austria|sweden|norway|denmark|finland|poland|greece|turkey|egypt|israel",
    "south africa|nigeria|kenya|alabama|al|alaska|ak|arizona|az|arkansas|ar|california|ca",
    "colorado|co|connecticut|ct|delaware|de|florida|fl|georgia|ga|hawaii|hi|idaho|id",
    "illinois|il|indiana|in|iowa|ia|kansas|ks|kentucky|ky|louisiana|la|maine|me|maryland|md",
    "massachusetts|ma|michigan|mi|minnesota|mn|mississippi|ms|missouri|mo|montana|mt",
    "nebraska|ne|nevada|nv|new hampshire|nh|new jersey|nj|new mexico|nm|new york|ny",
    "north carolina|nc|north dakota|nd|ohio|oh|oklahoma|ok|oregon|or|pennsylvania|pa",
    "rhode island|ri|south carolina|sc|south dakota|sd|tennessee|tn|texas|tx|utah|ut",
    "vermont|vt|virginia|va|washington|wa|west virginia|wv|wisconsin|wi|wyoming|wy|dc",
    "washington dc|district of columbia",
)
_PLACES = frozenset(place for line in _PLACE_LINES for place in line.split("|"))


def is_place(text: str) -> bool:
    """True when ``text`` is a country or a U.S. state (name or postal code)."""
    return " ".join(name_tokens(text)) in _PLACES
