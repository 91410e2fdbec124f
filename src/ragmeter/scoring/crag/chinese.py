"""Chinese in a reply, read as the English it states: what the rules and judges compare.

A bilingual system answers partly or wholly in Chinese: "2024年3月10日" is March 10, 2024,
"约2.3亿美元" is about $230 million, "4部" is 4 (films), "抱歉，我无法找到相关信息" declines
and "麦莉·赛勒斯从未获得..." says she never won. The rubric judges what a reply states,
whatever its language, so the parts whose meaning is mechanical are rewritten in English
before anything compares them:

- full-width digits, letters and punctuation as ASCII ("２０２４" is 2024, "。" a full stop);
- dates, figures scaled by 万, 亿 and 万亿 (at the precision they state), counters after a
  number ("7张", "5次"), units ("21克" is 21 g), ordinals ("第76届" is 76th) and words for
  about, over and under;
- the words that decline, hedge or deny ("我无法找到" I could not find, "可能是" probably,
  "从未" never, "前提不成立" the premise is false);
- a Chinese name or title glossed in Latin letters ("赛琳娜·戈麦斯 (Selena Gomez)") as its
  gloss.

The rest (ordinary Chinese words) stays as written, spaced off from the English and figures
around it, so that a figure's or a name's word boundaries hold. A reply without Chinese or
full-width characters is returned unchanged.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from decimal import Decimal

from ragmeter.scoring.normalize import format_ordinal

__all__ = ["chinese_as_english", "has_chinese"]

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN_CHAR = re.compile(f"[{_HAN}]")
_WIDE = re.compile("[\u3000-\u303f\uff01-\uff5e]")

# Full-width ASCII (U+FF01-U+FF5E) sits 0xFEE0 above ASCII; only that block and the
# ideographic space are mapped (NFKC would also turn "m²" into "m2").
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_PUNCTUATION = {
    "。": ". ", "，": ", ", "、": ", ", "：": ": ", "；": "; ", "！": "! ", "？": "? ",
    "（": " (", "）": ") ", "《": ' "', "》": '" ', "「": ' "', "」": '" ', "『": ' "',
    "』": '" ', "“": ' "', "”": '" ', "～": "~", "……": "... ",
}  # fmt: skip


def _longest_first(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any of ``words``, the longest first ("……" before "…")."""
    return re.compile("|".join(sorted(map(re.escape, words), key=len, reverse=True)))


_PUNCTUATION_MARK = _longest_first(_PUNCTUATION)

_DIGIT_WORDS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_DIGIT_WORDS |= {"七": 7, "八": 8, "九": 9}
_MONTHS = list(calendar.month_name)[1:]

_NUM = r"\d[\d,]*(?:\.\d+)?"
_COUNTERS = "部张次个枚项位名场座首本届家支季集"
# "一" before a counter is mostly an article ("最近一场比赛", the last match): only a numeral of
# two or more, or one before 万/亿, is a figure.
_SMALL_NUMBER = re.compile(
    rf"(?:[二两三四五六七八九十]|[一二两三四五六七八九十]{{2,3}})(?=[{_COUNTERS}倍岁])"
    r"|[一二两三四五六七八九十]{1,3}(?=万|亿)"
)
_FULL_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")
_YEAR_MONTH = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?!\s*\d)")
_MONTH_DAY = re.compile(r"(?<![\d年])(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")
_DECADE = re.compile(r"(\d{4})\s*年代")
_YEAR = re.compile(r"(\d{4})\s*年")
_RANGE = re.compile(r"(\d)\s*(年?)\s*[至到]\s*(?=\d)")
_ORDINAL = re.compile(r"第\s*(\d+)\s*[届名个次部季集位场轮]?")
_ABOUT = re.compile(r"(?:大约|大概|约)(?:为|有|是|含)?\s*(?=[-$\d])")
_MORE_THAN = re.compile(rf"({_NUM})\s*多(?=[{_COUNTERS}万亿])")
_MONEY = {"美元": "${}", "欧元": "€{}", "英镑": "£{}", "元": "{} yuan", "人民币": "{} yuan"}
_MONEY_WORDS = _longest_first(_MONEY).pattern
_AROUND_AFTER = re.compile(rf"({_NUM}\s*(?:万亿|亿|万)?\s*(?:{_MONEY_WORDS})?)\s*左右")
_SCALED = re.compile(rf"({_NUM})\s*(万亿|亿|万)\s*({_MONEY_WORDS})?")
_CURRENCY = re.compile(rf"({_NUM})\s*({_MONEY_WORDS})")
_UNITS = {
    "平方公里": "km²", "公里": "km", "千米": "km", "公斤": "kg", "千克": "kg", "克": "g",
    "英亩": "acres", "英尺": "ft", "英里": "miles", "米": "m", "股": "shares",
    "个单词": "words", "单词": "words", "人": "people", "岁": "years old", "分": "points",
    "倍": "times",
}  # fmt: skip
_UNIT = re.compile(
    rf"({_NUM}(?:\s(?:thousand|million|billion|trillion))?)\s*"
    rf"({_longest_first(_UNITS).pattern}|[{_COUNTERS}])"
)
_SCALES = [(Decimal(10) ** 12, "trillion"), (Decimal(10) ** 9, "billion")]
_SCALES += [(Decimal(10) ** 6, "million"), (Decimal(10) ** 3, "thousand")]
_FACTORS = {"万": 4, "亿": 8, "万亿": 12}

# Longest phrases first, so that "可能是的" is read before "可能是" and "是的".
_PHRASES = {
    # Declines.
    "抱歉": " Sorry ", "很抱歉": " Sorry ", "对不起": " Sorry ",
    "我无法找到": " I could not find ", "无法找到": " I could not find ",
    "我找不到": " I could not find ", "找不到": " could not find ",
    "我没有找到": " I could not find ", "没有找到": " could not find ",
    "未找到": " could not find ",
    "未能找到": " could not find ", "我不知道": " I don't know ", "不知道": " do not know ",
    "我不清楚": " I don't know ", "无法确定": " I cannot determine ",
    "无法提供": " I cannot provide ", "无法回答": " I cannot answer ",
    "没有相关信息": " there is no information on this ", "相关信息": " the information ",
    "没有相关数据": " there is no data on this ",
    # Sources said to be silent: "文档中没有提到X" ("the documents do not mention X").
    "文档中": " the documents ", "文档": " the documents ", "资料中": " the documents ",
    "上下文中": " the context ", "没有提到": " do not mention ", "没有提及": " do not mention ",
    "未提及": " do not mention ", "未提到": " do not mention ",
    # Hedges and beliefs.
    "可能是的": " probably yes ", "可能是": " probably ", "可能": " possibly ",
    "大概是": " probably ", "也许": " perhaps ", "或许": " perhaps ", "似乎": " it seems ",
    "好像": " it seems ", "我认为": " I think ", "我觉得": " I think ", "我相信": " I believe ",
    "据我所知": " as far as I know ", "不确定": " not sure ", "或者": " or ",
    # Denials and premises.
    "前提不成立": " the premise is false ", "前提是错误的": " the premise is false ",
    "前提有误": " the premise is false ", "前提错误": " the premise is false ",
    "从来不是": " was never ", "从来没有": " never ", "从没有": " never ", "从未": " never ",
    "从没": " never ", "两者都不是": " neither ", "都不是": " neither ", "并不是": " is not ",
    "并非": " is not ", "不是": " is not ",
    "并没有": " did not ", "还没有": " has not yet ", "尚未": " has not yet ",
    "没有任何": " no ", "没有": " no ", "不存在": " does not exist ",
    # Answers taken back and alternatives.
    "不对": " wait, that's wrong, ", "我说错了": " wait, that's wrong, ", "更正": " Correction ",
    "应该是": " it is ", "也可能是": " it might also be ",
    # Answers and approximations.
    "正确答案是": " The correct answer is ", "答案是": " The answer is ",
    "答案为": " The answer is ", "分别是": " namely ", "分别为": " namely ",
    "是的": " yes ", "将近": " nearly ",
    "超过": " over ", "不到": " under ", "少于": " under ",
}  # fmt: skip
_PHRASE = _longest_first(_PHRASES)

# Words that join English names and figures in a mixed sentence ("Roger Taylor和John Deacon",
# "由赛琳娜·戈麦斯 (Selena Gomez) 于2019年创立"): read only beside Latin letters or digits,
# since inside Chinese words they are parts of other words ("但是", "和平").
_JOINERS = {"和": "and", "与": "and", "及": "and", "或": "or", "是": "is", "包括": "include"}
_JOINERS |= {"由": "by", "于": "in", "在": "in"}
_LATIN_SIDE = r"[A-Za-z0-9$\"]"
_JOINER_WORDS = "|".join(_JOINERS)
_JOINER = re.compile(
    rf"(?<={_LATIN_SIDE})\s*({_JOINER_WORDS})|({_JOINER_WORDS})\s*(?={_LATIN_SIDE})"
)

# A short Chinese name or a 《title》 glossed in Latin letters: "高芙 (Coco Gauff)".
_GLOSSED = re.compile(
    rf'(?:(?<![{_HAN}·])[{_HAN}·]{{1,12}}|"[^"]{{1,20}}")\s*\(\s*([A-Za-z][^(){_HAN}]{{0,60}}?)\s*\)'
)
_GLOSS_WORDS = 6
_HAN_EDGE = re.compile(
    rf"(?<=[{_HAN}])(?=[^\s{_HAN}.,;:!?)\"'\-\u2013])|(?<=[^\s{_HAN}(\"'$\-\u2013])(?=[{_HAN}])"
)
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_STOP = re.compile(r"[ \t]+(?=[.,;:!?)])|(?<=\()[ \t]+")


def has_chinese(text: str) -> bool:
    """True when ``text`` holds a Chinese character or a full-width form."""
    return bool(_HAN_CHAR.search(text) or _WIDE.search(text))


def _small_number(word: str) -> str:
    """A number of up to 99 in Chinese numerals, in digits ("二十三" -> "23")."""
    if "十" not in word:
        return "".join(str(_DIGIT_WORDS[c]) for c in word)
    tens, _, units = word.partition("十")
    value = (_DIGIT_WORDS.get(tens, 1) if tens else 1) * 10
    return str(value + (_DIGIT_WORDS.get(units, 0) if units else 0))


def _decimals(number: str) -> int:
    return len(number.split(".", 1)[1]) if "." in number else 0


def _scaled(number: str, factor: int) -> str:
    """A figure scaled by 万/亿/万亿 in English at the precision it states: "2.3亿" is
    "230 million", "6.1万" is "61 thousand", "5.4万亿" is "5.4 trillion"."""
    amount = Decimal(number.replace(",", "")).scaleb(factor)
    step = Decimal(1).scaleb(factor - _decimals(number))
    for scale, word in _SCALES:
        if amount >= scale:
            places = max(0, -(step / scale).adjusted())
            return f"{amount / scale:,.{places}f} {word}"
    return f"{amount:,.0f}"


def _money(amount: str, currency: str | None) -> str:
    return _MONEY[currency].format(amount) if currency else amount


def _month(number: str) -> str | None:
    month = int(number)
    return _MONTHS[month - 1] if 1 <= month <= 12 else None


def _dates(text: str) -> str:
    def full(m: re.Match[str]) -> str:
        month = _month(m.group(2))
        return m.group(0) if month is None else f" {month} {int(m.group(3))}, {m.group(1)} "

    def year_month(m: re.Match[str]) -> str:
        month = _month(m.group(2))
        return m.group(0) if month is None else f" {month} {m.group(1)} "

    def month_day(m: re.Match[str]) -> str:
        month = _month(m.group(1))
        return m.group(0) if month is None else f" {month} {int(m.group(2))} "

    text = _FULL_DATE.sub(full, text)
    text = _YEAR_MONTH.sub(year_month, text)
    text = _MONTH_DAY.sub(month_day, text)
    text = _RANGE.sub(r"\1\2 to ", text)
    text = _DECADE.sub(r" \1s ", text)
    return _YEAR.sub(r" \1 ", text)


def _figures(text: str) -> str:
    text = _SMALL_NUMBER.sub(lambda m: _small_number(m.group(0)), text)
    text = _ORDINAL.sub(lambda m: f" {format_ordinal(int(m.group(1)))} ", text)
    text = _AROUND_AFTER.sub(r" about \1 ", text)
    text = _ABOUT.sub(" about ", text)
    text = _MORE_THAN.sub(r" over \1", text)
    text = _SCALED.sub(
        lambda m: f" {_money(_scaled(m.group(1), _FACTORS[m.group(2)]), m.group(3))} ", text
    )
    text = _CURRENCY.sub(lambda m: f" {_money(m.group(1), m.group(2))} ", text)
    return _UNIT.sub(lambda m: f" {m.group(1)} {_UNITS.get(m.group(2), '')} ", text)


def _gloss(m: re.Match[str]) -> str:
    gloss = m.group(1)
    # "资产、负债和股东权益 (assets, liabilities and equity)" glosses a whole list, more than
    # the words just before it: only a name's gloss stands for them.
    if len(gloss.split()) > _GLOSS_WORDS or "," in gloss:
        return m.group(0)
    return f" {gloss} "


def chinese_as_english(text: str) -> str:
    """``text`` with its Chinese figures, dates, declines, hedges and denials in English and
    its full-width forms as ASCII; unchanged when it holds none."""
    if not has_chinese(text):
        return text
    text = _PUNCTUATION_MARK.sub(lambda m: _PUNCTUATION[m.group(0)], text).translate(_FULL_WIDTH)
    text = _dates(text)
    text = _figures(text)
    text = _PHRASE.sub(lambda m: _PHRASES[m.group(0)], text)
    text = _GLOSSED.sub(_gloss, text)
    text = _JOINER.sub(lambda m: f" {_JOINERS[m.group(1) or m.group(2)]} ", text)
    text = _HAN_EDGE.sub(" ", text)
    text = _SPACE_BEFORE_STOP.sub("", _SPACES.sub(" ", text))
    return "\n".join(line.strip() for line in text.split("\n")).strip()
