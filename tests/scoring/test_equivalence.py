"""What mechanics settle before any judge: values, yes/no, a bare comparison pick."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.equivalence import (
    affirmation_outcome,
    clipped_gold_outcome,
    code_outcome,
    comparison_outcome,
    contradicted_values,
    corrects_question,
    defined_genus,
    gold_option,
    gold_values,
    guessed_values,
    list_outcome,
    negates_question,
    only_figure,
    opening_outcome,
    partner_named,
    place_before_country,
    plain_list,
    restated_with_gold,
    restates_question,
    settle,
    split_items,
    stated_beside,
    stated_list,
    stated_value,
    unknown_outcome,
    value_outcome,
    yes_no_outcome,
)
from ragmeter.scoring.crag.options import comparison_options


@pytest.mark.parametrize(
    ("gold", "pred", "label"),
    [
        ("7/20/74", "July 20, 1974.", "correct"),
        ("2024-03-10", "10-Mar-24", "correct"),  # a spreadsheet's DD-MON-YY
        ("2024-03-10", "Villa last played on 10-MAR-2024.", "correct"),
        ("2024-03-10", "11-Mar-24", "incorrect"),
        ("$50m", "The deal was worth $50 million.", "correct"),
        ("2023-01-24, 2023-04-25", "On April 25, 2023 and January 24, 2023.", "correct"),
        ("2023-01-24, 2023-04-25", "On April 25, 2023 and January 25, 2023.", "incorrect"),
        ("1974", "It came out in 1975.", "incorrect"),
        ("$221.83", "209.52", "incorrect"),
        ("28.3", "the current pe ratio is 26.66", "incorrect"),
        ("89", "89 points (they lost 94-89 in Game 5).", "correct"),  # a count it leads with
        ("$519.53 billion", "For 2021-2023 it was about $519.5 billion.", "correct"),
        ("1929-1941", "1929", "incorrect"),  # one end of the gold's period
        ("1935-11-30", "1935", "incorrect"),  # the year of a full date is less than asked
        ("2023-01-24, 2023-04-25", "January 24, 2023.", "incorrect"),  # a part of the list
    ],
)
def test_value_outcomes(gold: str, pred: str, label: str) -> None:
    outcome = value_outcome([gold], pred)
    assert outcome is not None and outcome.label == label
    assert outcome.rule == ("equivalent_value" if label == "correct" else "different_value")


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("2", "He won 3 titles in 2 seasons."),  # a bare count among other numbers
        ("over 4,000 miles", "4,000 miles"),  # a qualified gold is the judge's
        ("2 million", "over 2 million"),
        ("seinfeld season 9", "Season 9"),  # not a value-like gold
        ("$3.2 billion", "3.2"),
        ("$0.55", "It traded well under $1."),  # a bound the gold meets: neither way
        ("1948-01-01", "1948"),  # a January 1 gold may be a year alone: not proven wrong
    ],
)
def test_values_left_to_the_judge(gold: str, pred: str) -> None:
    assert value_outcome([gold], pred) is None


def test_alias_values_and_question_echoes() -> None:
    # An approximation within rounding states the value; a bound does not.
    about = value_outcome(["1,500", "1500 people"], "About 1500 people attended.")
    assert about is not None and about.label == "correct"
    assert value_outcome(["1,500"], "More than 1500 people attended.") is None
    loose = value_outcome(["$405.72"], "It trades at around $416 per share.")
    assert loose is not None and loose.label == "incorrect"
    outcome = value_outcome(["146"], "140 films came out in 2020.", "how many in 2020?")
    assert outcome is not None and outcome.label == "incorrect"
    assert "2020" not in (outcome.detail or "")
    assert gold_values("4 3-point attempts per game") is None


def test_yes_no() -> None:
    assert yes_no_outcome(["yes"], "Yes, they did.").label == "correct"  # type: ignore[union-attr]
    assert yes_no_outcome(["no"], "Yes.").label == "incorrect"  # type: ignore[union-attr]
    assert yes_no_outcome(["yes"], "They did.") is None
    # Chatty openers say it too.
    nope = yes_no_outcome(["no"], "\U0001f3c0 Nope! He has never played all 82 games.")
    assert nope is not None and nope.label == "correct"
    yep = yes_no_outcome(["no"], "Yep, every one of them.")
    assert yep is not None and yep.label == "incorrect"
    # A bare "True" or "False" is a yes or a no; "True Detective ..." opens with a title.
    false = yes_no_outcome(["no"], "False")
    assert false is not None and false.label == "correct"
    assert yes_no_outcome(["no"], "True Detective kept its title.") is None
    # A verdict set off after the opening sentence's lead-in.
    for led in (
        "Based on the provided context, no, he has never played all 82 games.",
        "So no, Houston did not outscore the Lakers.",
        "The answer is no, Miami scored fewer points.",
        "It depends which film you mean, but no: the 1982 one kept it.",
    ):
        said = yes_no_outcome(["no"], led)
        assert said is not None and said.label == "correct", led
    # Not a verdict of its own: a "no" inside a clause, or past the opening sentence.
    assert yes_no_outcome(["no"], "There was no, or almost no, change in the title.") is None
    assert yes_no_outcome(["no"], "It kept its title. So no change, no.") is None
    # A bare "yes" to a question whose answer is something else answers nothing asked.
    bare = yes_no_outcome(["paris"], "Yes")
    assert bare is not None and bare.label == "incorrect"
    assert yes_no_outcome(["paris"], "Yes, it is Paris.") is None
    # A sentence gold that gives its verdict first: a bare verdict is settled, the opposite
    # verdict too; what follows a matching one is read against the gold's own detail.
    rich = ["yes, rogan is estimated at $120 million while elon musk is valued at $257 billion."]
    assert yes_no_outcome(rich, "yes").label == "correct"  # type: ignore[union-attr]
    assert yes_no_outcome(rich, "No.").label == "incorrect"  # type: ignore[union-attr]
    assert yes_no_outcome(rich, "Yes, Musk is worth about $200 billion.") is None
    assert yes_no_outcome(["no one"], "Yes") is not None  # "no one" gives no verdict


def test_comparison_options_and_picks() -> None:
    q = "who has won more super bowl championships, tom brady or peyton manning?"
    opts = comparison_options(q)
    assert opts is not None and opts.first == "tom brady" and opts.second == "peyton manning"
    # The options first, then a comparative: "is a or b newer?"
    phones = comparison_options("is the samsung galaxy s24 or the samsung galaxy z flip 5 newer?")
    assert phones is not None and phones.first_words == {"s24"}
    assert comparison_options("is paris or lyon the capital of france?") is None
    gold = "tom brady has won more super bowls than peyton manning, 7 to 2."
    assert gold_option(q, [gold]) == "tom brady"
    assert comparison_outcome(q, [gold], "Tom Brady.").label == "correct"  # type: ignore[union-attr]
    wrong = comparison_outcome(q, [gold], "The answer is Peyton Manning")
    assert wrong is not None and wrong.label == "incorrect" and wrong.rule == "comparison_option"
    # In a sentence, the option named first is the one chosen...
    lead = comparison_outcome(q, [gold], "Peyton Manning has won more, 5 to Brady's 7.")
    assert lead is not None and lead.label == "incorrect"
    ok = comparison_outcome(q, [gold], "Tom Brady has won seven, far more than Peyton Manning.")
    assert ok is not None and ok.label == "correct"
    # ...unless it opens with a contrast or compares the other way round: the judge decides.
    assert comparison_outcome(q, [gold], "Peyton Manning has won fewer than his rival.") is None
    assert comparison_outcome(q, [gold], "Compared with Peyton Manning, Brady won more.") is None
    assert comparison_options("who is the ceo of apple?") is None
    # A clause that denies before it names the options chooses neither.
    pred = "Based on the figures, neither Tom Brady nor Peyton Manning has won one."
    assert comparison_outcome(q, [gold], pred) is None
    pred = "That rests on a wrong assumption: no ring was ever won by Tom Brady or Peyton Manning."
    assert comparison_outcome(q, [gold], pred) is None
    pred = "Tom Brady has won more; Peyton Manning has not come close."
    assert comparison_outcome(q, [gold], pred).label == "correct"  # type: ignore[union-attr]
    # A direction word the question already holds ("last year") is no reversed comparison.
    q = "which wta player ranked higher to end last year, madison keys or daria kasatkina?"
    pred = "Daria Kasatkina ranked higher than Madison Keys at the end of last year."
    other = comparison_outcome(q, ["madison keys"], pred)
    assert other is not None and other.label == "incorrect" and other.rule == "comparison_option"
    # A gold that opens "both ..." picks neither option.
    q = "which movie has more oscar nominations for visual effects, inception or interstellar?"
    assert gold_option(q, ["both interstellar and inception have won the oscar."]) is None
    assert gold_option(q, ["interstellar has more, with two against one."]) == "interstellar"


def test_settle_order() -> None:
    assert settle("is it?", ["no"], "No, 12 of them.").rule == "yes_no"  # type: ignore[union-attr]
    assert settle("who wrote it?", ["ernest hemingway"], "Hemingway") is None


def test_a_time_aside_in_a_list_is_no_item() -> None:
    gold = ["orlando magic, boston celtics, philadelphia 76ers, and currently the milwaukee bucks"]
    pred = "He coached the Orlando Magic, Boston Celtics, Philadelphia 76ers and, since January"
    pred += " 2024, the Milwaukee Bucks."
    assert list_outcome(gold, pred).label == "correct"  # type: ignore[union-attr]
    gold = ["real madrid, juventus, manchester united, and al nassr"]
    pred = "Since 2010, he has played for Real Madrid, Juventus, Manchester United and Al Nassr."
    assert list_outcome(gold, pred).label == "correct"  # type: ignore[union-attr]
    # Where the list was read is no item of it either.
    pred = "According to the context, since 2010 he has played for Real Madrid, Juventus,"
    pred += " Manchester United and Al Nassr."
    assert list_outcome(gold, pred).label == "correct"  # type: ignore[union-attr]


def test_the_questions_own_counts_and_ordinals_restate_nothing() -> None:
    q = "which players have won all four titles at least twice?"
    gold = "court, evert, graf and williams have won all four titles at least twice."
    pred = "Five women have: Court, Evert, Navratilova, Graf and Williams."
    assert contradicted_values(gold, pred, query=q) == []
    assert contradicted_values(gold, pred)  # without the question, "four" is the gold's
    # An ordinal is no count: "his first marriage" restates none of "four" or "two".
    gold = "tom hanks has four children total, two with rita wilson."
    pred = "Two with Rita Wilson: Chet and Truman. He has two more from his first marriage."
    assert contradicted_values(gold, pred) == []
    # A year the question names is still the gold's to restate.
    q = "what was the name of the 1999 film that kirsten storms starred in?"
    gold = "zenon: girl of the 21st century is a 1999 disney channel original movie."
    pred = "Zenon: Girl of the 21st Century is a 2009 Disney Channel original movie."
    assert [v.text for v in contradicted_values(gold, pred, years=True, query=q)] == ["2009"]
    # A count only the question names is the prediction's own answer when the gold lacks it.
    q = "how many common stocks does the s&p 500 index comprise?"
    assert [v.text for v in contradicted_values("it holds 505 stocks", "500", query=q)] == ["500"]


def test_list_items() -> None:
    gold = [
        "shiloh jolie-pitt, zahara marley jolie, maddox chivan jolie-pitt, pax thien jolie-pitt"
    ]
    same = list_outcome(gold, "Her children are Maddox, Pax, Zahara and Shiloh.")
    assert same is not None and same.label == "correct"
    extra = list_outcome(gold, "Maddox, Pax, Zahara, Shiloh, Knox and Vivienne")
    assert extra is not None and extra.label == "incorrect" and "2 item(s) added" in extra.detail
    namely = list_outcome(gold, "Her children are, namely, Maddox, Pax, Zahara and Shiloh.")
    assert namely is not None and namely.label == "correct"
    counted_namely = list_outcome(
        gold, "Her children include four, namely Maddox (2002), Pax (2003), Zahara and Shiloh."
    )
    assert counted_namely is not None and counted_namely.label == "correct"
    award = ["chance the rapper, alessia cara, dua lipa"]
    went = "From the 59th to the 61st Grammys, Best New Artist went to Chance the Rapper, Alessia "
    went_to = list_outcome(award, went + "Cara and Dua Lipa.")
    assert went_to is not None and went_to.label == "correct"
    inline = list_outcome(gold, "(1) Maddox (2) Pax (3) Zahara (4) Shiloh.")
    assert inline is not None and inline.label == "correct"
    counted = list_outcome(gold, "4: (1) Maddox (2) Pax (3) Zahara (4) Shiloh.")
    assert counted is not None and counted.label == "correct"
    plus = list_outcome(gold, "Maddox + Pax + Zahara + Shiloh")
    assert plus is not None and plus.label == "correct"
    slashed = list_outcome(gold, "Maddox / Pax / Zahara / Shiloh")
    assert slashed is not None and slashed.label == "correct"
    piped = list_outcome(gold, "Maddox | Pax | Zahara | Shiloh")
    assert piped is not None and piped.label == "correct"
    # Between figures "+" is a sum, not a list.
    assert split_items("2 + 3 = 5") == ["2 + 3 = 5"]
    short = list_outcome(gold, "1. Maddox 2. Pax 3. Zahara")
    assert (
        short is not None
        and short.label == "incorrect"
        and "1 gold item(s) missing" in short.detail
    )
    lead = list_outcome(
        ["china, united states, india"],
        "The top 3 producers as of February 28, 2024, are China, the United States, and India.",
    )
    assert lead is not None and lead.label == "correct"
    # A city and its country are one place; two states are two items.
    assert list_outcome(["los angeles, usa"], "los angeles, ca") is None
    two = list_outcome(["nevada, oregon"], "Nevada and Idaho")
    assert two is not None and two.label == "incorrect"
    # An item named another way: a country's code, an acronym.
    usa = list_outcome(["china, united states, india"], "china; usa; india")
    assert usa is not None and usa.label == "correct"
    # Not a list answer, or not a list gold: the judge's.
    assert list_outcome(gold, "Maddox.") is None
    # ... unless the question asks after several and it names one of three or more items.
    several = list_outcome(gold, "Maddox.", "who are angelina jolie's children?")
    assert several is not None and several.label == "incorrect"
    pond = ["an engineered pond, fed by the pripyat river"]
    assert list_outcome(pond, "A cooling pond.", "what are the cooling sources?") is None
    assert list_outcome(["the band was formed by john and paul in 1960"], "John, Paul") is None


def test_short_codes_named_in_words() -> None:
    assert code_outcome(["en"], "English.").label == "correct"  # type: ignore[union-attr]
    assert code_outcome(["es"], "She is from Spain.").label == "correct"  # type: ignore[union-attr]
    assert code_outcome(["us"], "The United States.").label == "correct"  # type: ignore[union-attr]
    assert code_outcome(["l"], "Strasbourg lost their last match.").label == "correct"  # type: ignore[union-attr]
    assert code_outcome(["w"], "They lost 2-1.") is None  # the other result: the judge's
    # A draw said in the words of the other results.
    draw = "They drew 1-1, so it was neither a win nor a loss."
    assert code_outcome(["d"], draw).label == "correct"  # type: ignore[union-attr]
    assert code_outcome(["w"], draw) is None
    assert code_outcome(["en"], "French") is None
    assert code_outcome(["paris"], "Paris") is None
    # A venue: "on the road" is away.
    road = code_outcome(["away"], "Reims played their last game on the road.")
    assert road is not None and road.label == "correct"
    assert code_outcome(["away"], "They played at home.") is None


def test_a_prediction_that_only_repeats_the_question_gives_no_answer() -> None:
    q = "which company in the s&p 500 has the highest eps growth rate?"
    assert restates_question(q, "The company with the highest EPS growth rate in the S&P 500.")
    assert not restates_question(
        "what is the capital of france?", "The capital of France is Paris."
    )
    assert not restates_question(q, "Nvidia has the highest EPS growth rate in the S&P 500.")
    assert not restates_question("how many moons does mars have?", "Mars has 2 moons.")


def test_stated_beside_wrong_looking_figures() -> None:
    gold = "bruce willis worked on 2 movies in 2023"
    pred = "He retired in 2022, but films he had shot were released in 2023."
    wrong = contradicted_values(gold, pred, years=True)
    assert [v.text for v in wrong] == ["2022"] and stated_beside(gold, pred, wrong, years=True)
    # The gold's 2019 is nowhere right: 2119 stays a wrong restatement of it.
    gold = "named three times, in 2010, 2015, and 2019"
    pred = "Named three times, in 2010, 2015, and 2119."
    wrong = contradicted_values(gold, pred, years=True)
    assert wrong and not stated_beside(gold, pred, wrong, years=True)


def test_the_other_side_of_a_score_is_no_wrong_restatement() -> None:
    lost = "The Cavaliers lost to the Knicks 106-95."
    assert contradicted_values("95", lost, score=True) == []
    assert [v.text for v in contradicted_values("95", "They scored 106.", score=True)] == ["106"]
    # Elsewhere a pair is a range, and its other end a wrong figure.
    assert [v.text for v in contradicted_values("95", lost)] == ["106"]


def test_comparison_options_in_more_question_shapes() -> None:
    q = "does manning or brady have more touchdowns?"
    opts = comparison_options(q)
    assert opts is not None and (opts.first, opts.second) == ("manning", "brady")
    assert comparison_outcome(q, ["brady"], "Tom Brady.").label == "correct"  # type: ignore[union-attr]
    # An option named by another spelling: joined words, a country's name for its code.
    q = "who has more subscribers on youtube, mr. beast or pewdiepie?"
    assert comparison_outcome(q, ["mr. beast"], "MrBeast").label == "correct"  # type: ignore[union-attr]
    # A misspelt option still names it (between two fixed names).
    q = "did gretsky or ovechkin have more hockey goals?"
    pred = "Wayne Gretzky has more: 894 goals, while Alex Ovechkin had roughly 840."
    assert comparison_outcome(q, ["gretsky"], pred).label == "correct"  # type: ignore[union-attr]
    q = "which country currently has the highest stock market, usa or japan?"
    pred = "The United States has by far the larger market; Japan's Nikkei hit a record."
    assert comparison_outcome(q, ["usa"], pred).label == "correct"  # type: ignore[union-attr]
    # A question about both at once asks for no pick.
    q = "what is the age difference between angelina jolie and billy bob thornton?"
    assert comparison_options(q) is None
    # A question with "ratio" may still ask for a pick.
    assert comparison_options("which has a higher debt-to-equity ratio, autodesk or cdw?")
    # A question between commas is no third option; a short name is.
    q = "in 2022, which team had more victories, san antonio spurs or minnesota timberwolves?"
    pred = "The Minnesota Timberwolves won more (46-36) than the San Antonio Spurs (34-48)."
    assert comparison_outcome(q, ["minnesota timberwolves"], pred).label == "correct"  # type: ignore[union-attr]
    assert comparison_options("which is older, an old man and his grandson, b or c?") is None
    # "more than 200" bounds a figure; it does not turn the comparison round.
    q = "which has a smaller membership, international tennis federation or fih?"
    pred = "The FIH is smaller, with about 140 members against more than 200 in the ITF."
    assert comparison_outcome(q, ["fih"], pred).label == "correct"  # type: ignore[union-attr]


def test_the_figure_named_as_the_measure_asked_is_the_answer() -> None:
    q = "how many receiving yards did he average per game in 2023?"
    pred = "He had 564 receiving yards in 16 games in 2023, an average of about 35.3 per game."
    assert value_outcome(["35.25"], pred, q).label == "correct"  # type: ignore[union-attr]
    wrong = pred.replace("35.3", "38")
    assert value_outcome(["35.25"], wrong, q).label == "incorrect"  # type: ignore[union-attr]
    # Named as a measure the question did not ask for, the figure is one among the others.
    q = "how many receiving yards did he have per game in 2023?"
    assert value_outcome(["35.25"], pred, q) is None


def test_figures_after_the_golds_own_are_detail() -> None:
    gold = "the celtics and lakers have won a combined 34 nba championships."
    assert contradicted_values(gold, "34 (17 each).") == []
    # A different figure first, or the gold's figure as the end of a range, proves nothing.
    assert [v.text for v in contradicted_values(gold, "17 each, 34 in all.")] == ["17"]
    gold = "you should have two goldfish in a tank"
    assert contradicted_values(gold, "A tank can hold 2 to 3 goldfish.", years=True)
    # A figure that meets a bound of the gold's ("over 5 years") restates nothing wrongly.
    gold = "she has been with him for over 5 years, he with her for less than a year."
    assert contradicted_values(gold, "Her marriage lasted about ten years.") == []
    assert contradicted_values(gold, "Her marriage lasted about three years.")
    gold = "kei kamara has the most mls goals without an mvp award, with 144 goals."
    assert contradicted_values(gold, "Kei Kamara, with 140-plus MLS goals.") == []
    # A bound the gold satisfies does not restate it wrongly; one it breaks does.
    gold = "drake has had more number one hits, with a total of 27 number one hits."
    assert contradicted_values(gold, "Drake, with well over 20, against a handful.") == []
    assert contradicted_values(gold, "Drake, with over 30.")
    # A percentage is restated by a percentage, not by milligrams.
    gold = "broccoli has more vitamin c with 107% dv."
    assert contradicted_values(gold, "Broccoli, about 89 mg vs. 85 mg per 100 g.") == []
    # "About" is no licence to be off: only the whole number the gold rounds to stands.
    gold = "black panther opened higher, with $192 million, against $35.4 million."
    rough = contradicted_values(gold, "Black Panther, about $202 million against $35.4 million.")
    assert [v.text for v in rough] == ["$202 million"]
    assert contradicted_values("15.52", "approximately 16") == []
    assert contradicted_values("15.52", "about 15")


def test_rounding_half_up_and_counts_in_words() -> None:
    about = value_outcome(["35.25"], "About 35.3 receiving yards per game.")
    assert about is not None and about.label == "correct"
    # A finer figure that rounds to the gold's coarser one states it; a coarser one that
    # the gold does not round to does not.
    for pred in ("About 3.9 attempts per game.", "About 4.3 attempts per game."):
        finer = value_outcome(["4"], pred)
        assert finer is not None and finer.label == "correct"
    assert value_outcome(["1.5"], "2") is None
    coarser = value_outcome(["555.7 m"], "555 m")
    assert coarser is not None and coarser.label == "incorrect"
    # An area in another form of its unit is the same area; another figure is not.
    area = value_outcome(["1122 square meters"], "1,122 m² (17 m × 66 m), about 12,077 sq ft.")
    assert area is not None and area.label == "correct"
    wrong_area = value_outcome(["1122 square meters"], "1,212 m²")
    assert wrong_area is not None and wrong_area.label == "incorrect"
    # A unit glued to its number is read with it.
    glued = value_outcome(["1,776 ft"], "It stands 1,775ft tall.")
    assert glued is not None and glued.label == "incorrect"
    # "a single minaret ... 53 meters ... built in 1914": the other figures prove nothing.
    pred = "It has a single minaret, a 53-meter tower built in 1914."
    assert value_outcome(["1"], pred) is None
    pred = "China won one gold medal (Wu Dajing, men's 500 m short track)."
    assert value_outcome(["1"], pred) is None
    wrong = value_outcome(["1"], "It has 3 minarets, each 53 meters tall.")
    assert wrong is not None and wrong.label == "incorrect"


def test_list_items_by_acronym_misspelling_and_sentence() -> None:
    gold = ["world boxing association (wba), world boxing council (wbc), ibf, wbo"]
    short = list_outcome(gold, "WBA, WBC, IBF and WBO.")
    assert short is not None and short.label == "correct"
    bodies = ["wba, wbc, ibf, wbo"]
    long = list_outcome(
        bodies,
        "The four are the World Boxing Association (WBA, founded 1921), the World Boxing "
        "Council, the International Boxing Federation and the World Boxing Organization. "
        "The IBO is also respected.",
    )
    assert long is not None and long.label == "correct"
    spelt = list_outcome(
        ["the bourne identity, the bourne supremecy, jason bourne"],
        "The Bourne Identity, The Bourne Supremacy and Jason Bourne",
    )
    assert spelt is not None and spelt.label == "correct"
    # The list ends where a new clause begins after a semicolon.
    ufc = list_outcome(
        ["raquel pennington, alexa grasso, zhang weili"],
        "Zhang Weili (strawweight), Alexa Grasso (flyweight) and Raquel Pennington "
        "(bantamweight); the featherweight title has been vacant since 2023.",
    )
    assert ufc is not None and ufc.label == "correct"
    yearly = list_outcome(
        ["norway, sweden, finland"],
        "The three are Norway, Sweden and Finland; in 2021, Norway exported about 20 TWh,"
        " Sweden about 25 TWh and Finland about 5 TWh.",
    )
    assert yearly is not None and yearly.label == "correct"
    # A list that is the sentence's subject, before its verb.
    gold = ["margaret court, chris evert, martina navratilova, steffi graf, and serena williams"]
    short_of_one = list_outcome(
        gold,
        "Margaret Court, Martina Navratilova, Steffi Graf, and Serena Williams have each won"
        " all four at least twice.",
    )
    assert short_of_one is not None and short_of_one.detail.startswith("1 gold item(s) missing")
    whole = list_outcome(gold, "Court, Evert, Navratilova, Graf and Williams have all done it.")
    assert whole is not None and whole.label == "correct"


def test_a_sentence_golds_stated_list_and_value() -> None:
    assert stated_list("isla fisher has 3 kids: olive, elula, and montgomery.") == (
        "olive, elula, and montgomery"
    )
    # "including" gives part of the answer; clauses are no items; a list gold has no key.
    assert stated_list("he has five children, including kate, pat and joe.") is None
    assert (
        stated_list("the winner was ben-hur, directed by william wyler and starring heston") is None
    )
    assert stated_list("the lord of the rings: the return of the king, titanic, ben-hur") is None
    # Quoted titles holding "and" or a colon cannot be split on their words.
    assert stated_list('the films are "fast and furious", "fast five" and "f9".') is None
    # A list of names may lead the sentence, before its verb; figures do not lead one.
    assert stated_list("emerson, laver, nadal and court have all won it twice.") == (
        "emerson, laver, nadal and court"
    )
    assert stated_list("apple, google and meta are all tech companies") == "apple, google and meta"
    assert stated_list("in 2019, 2020 and 2021 the team has won") is None
    # The lead-in of a listed answer runs to its colon.
    films = "The franchise includes five films:\n- The Bourne Identity (2002)\n- Jason Bourne"
    done = list_outcome(["the bourne identity, jason bourne"], films)
    assert done is not None and done.label == "correct", done
    assert stated_value("netflix stock closing price is 561.32") == "561.32"
    assert stated_value("the movie is titanic") is None


def test_a_declining_reply_that_guesses_a_figure() -> None:
    pred = "I don't have real-time quotes, but it was trading around $300-315 in late February."
    assert guessed_values(["$322.90"], pred)
    # What is usual, or the figures of what it says it does not know, are no guess.
    assert not guessed_values(
        ["9989000"], "I don't have live data; it usually trades 10-20 million."
    )
    dated = "I don't have data for January 2-5, 2024, so I can't say which days it rose."
    week = "in the first week of january 2024"
    assert not guessed_values(["2024-01-02, 2024-01-03"], dated, week)
    silent = "None of the sources I retrieved give its closes for January 2 to January 5, 2024."
    assert not guessed_values(["2024-01-02, 2024-01-03"], silent, week)
    assert not guessed_values(["1800"], "I don't have live data. It is the 8.75% Series B.")
    assert not guessed_values(["paris"], "I don't know, maybe 3 of them.")
    # The whole sentence about what is usual is context, past its commas too.
    usual = "I don't have recent quotes. Warrants usually trade for cents, often under $0.10."
    assert not guessed_values(["$0.01"], usual)
    averages = "Not in retrieved pages (only general board-meeting averages, \u22488/yr)."
    assert not guessed_values(["25"], averages)
    # Days of a range and the second year of a season are no count.
    assert not guessed_values(["98"], "It was preseason, before the 2022-23 season. I don't know.")
    assert not guessed_values(["1889100"], "I don't have that data; look up Feb 1-7, 2024.")
    # A figure joined to the noun it qualifies ("the 1-month chart") is no guess.
    chart = "I don't have its price history. The 1-month chart in the app shows the low."
    assert not guessed_values(["$2.85"], chart)
    # An abbreviated month ends no sentence: "Oct. 2, 2022" is a date, no count of 2.
    oct2 = "That Oct. 2, 2022 game was preseason. I couldn't find a reliable box score."
    assert not guessed_values(["0"], oct2, "how many free throws did he make on oct 2, 2022?")
    # A sentence gold is read for its one figure; a short one with words beside its figure
    # ("$30,123,980 more") is not.
    gold = "radiohead has released a total of 51 music videos."
    pred = "I could not find an exact count; its videography has roughly 40 music videos."
    assert guessed_values([gold], pred, "how many music videos has radiohead released?")
    pred = "I don't have genre totals; Dune's opening weekend was roughly $82 million."
    assert not guessed_values(["$30,123,980 more"], pred)


def test_only_figure_and_plain_lists() -> None:
    assert only_figure("titanic has won 11 awards.", "how many oscars did titanic win?") == "11"
    assert (
        only_figure("in 2024 he earns $29,000,000 and a bonus of $5,000,000", "how much?") is None
    )
    assert only_figure("about 4 times as many", "how many more?") is None
    never = "she has never won it, though she has been nominated seven times."
    assert only_figure(never, "how many times has she won it?") is None
    # Of several figures, the one the question's own qualifier follows.
    hanks = "tom hanks has four children total, two with rita wilson."
    assert only_figure(hanks, "how many children does he have with rita wilson?") == "two"
    assert only_figure("7 books and 8 movies", "how many books and movies are there?") is None
    prime = "a natural number greater than 1 which has only two factors, 1 & the number itself."
    assert only_figure(prime, "what is a prime number?") is None
    assert plain_list("lenny kravitz, lisa bonet")
    assert not plain_list("drake's most popular album, take care, released in 2011")
    assert not plain_list("ps 41 in greenwich village, manhattan")
    # Titles may hold a verb ("will") and the last item an "and".
    assert plain_list("good will hunting, argo, and gone baby gone")
    # A digit inside a name is no figure.
    assert plain_list("dallas cowboys, san francisco 49ers, baltimore ravens")
    # Two names joined by "and" are a list where the question asks after more than one.
    players = "frenkie de jong and robert lewandowski"
    assert plain_list(players, "who are the highest paid players for fc barcelona?")
    assert not plain_list(players)
    assert not plain_list("pride and prejudice", "what is her best known novel?")


def test_no_figure_to_a_question_nobody_can_answer_is_missing() -> None:
    gold = ["i don't know"]
    out = unknown_outcome(gold, "WLDSW is a warrant, and warrants have no P/E ratio.")
    assert out is not None and (out.label, out.rule) == ("missing", "refusal")
    # A figure is an attempt at an answer: the judge reads it.
    assert unknown_outcome(gold, "Its P/E ratio is 14.2.") is None
    assert unknown_outcome(["paris"], "No idea, sorry.") is None


def test_a_reply_that_opens_by_denying_the_questions_claim() -> None:
    assert corrects_question(
        "who was chris pratt married to in 2005?",
        "Chris Pratt wasn't married in 2005. He married in 2009.",
    )
    assert corrects_question(
        "what score did elle get on the asat test in legally blonde?",
        "There's no **ASAT** in *Legally Blonde*. She took the LSAT.",
    )
    assert corrects_question("why are jack russell terriers so lazy?", "They aren't.")
    # A chat opener comes before the sentence that corrects.
    assert corrects_question(
        "when did the noto earthquake happen in january of 2022?",
        "Quick correction! The Noto earthquake hit on January 1, 2024, not 2022.",
    )
    # A "No," answers a yes/no question; a denial of something else corrects nothing.
    assert not corrects_question(
        "was the great gatsby directed by eric till?", "No, it was directed by Baz Luhrmann."
    )
    assert not corrects_question(
        "when did elon musk step down?", "In 2018, not 2019, he left the board."
    )
    assert not corrects_question(
        "who was chris pratt married to in 2005?", "Anna Faris, from 2009."
    )


def test_a_reply_that_negates_the_questions_own_words() -> None:
    elle = "what score did elle get on the asat test in legally blonde?"
    assert negates_question(elle, 'She scores 179 on the LSAT (not "ASAT").') == "not asat"
    ipo = "what is the trading volume of microsoft when they ipo in 1987?"
    said = "Quick correction: Microsoft went public on March 13, 1986, not 1987. About 3.6m."
    assert negates_question(ipo, said) == "not 1987"
    lazy = "why are jack russell terrier so lazy?"
    assert negates_question(lazy, "Jack Russell Terriers are generally not lazy.") == "not lazy"
    worst = "how much is the worst performing stock, amazon?"
    said = "It trades at $176. Amazon hasn't been one of the worst performers."
    assert negates_question(worst, said) == "hasnt worst"
    first = "when was disney's first feature-length film pinocchio, released?"
    said = "February 7, 1940; it was Disney's second animated feature, not its first."
    assert negates_question(first, said) == "not 1st"
    # A possessive is the word it owns; "is alive" denies a death the question assumes.
    frozen = "as the highest grossing disney film, how much did frozen make?"
    said = "It grossed $1.28 billion, though it isn't Disney's top earner."
    assert negates_question(frozen, said) == "isnt disneys"
    assert negates_question("what day did beyonce die?", "Beyoncé is alive.") == "is alive"
    assert negates_question("what day did beyonce debut?", "Beyoncé is alive.") is None
    # A decline negates nothing; "No," answers; the question's own "not" is a title's.
    assert negates_question(ipo, "I could not find the 1987 trading volume.") is None
    assert negates_question("was it released in 1987?", "No, it was not released in 1987.") is None
    gods = "was god's not dead too the title originally chosen for that movie?"
    assert negates_question(gods, "God's Not Dead Too kept its title.") is None


def test_a_sentence_that_opens_with_the_gold_name() -> None:
    q = "who directed your sister's sister?"
    opens = opening_outcome(q, ["lynn shelton"], "Lynn Shelton directed Your Sister's Sister.")
    assert opens is not None and (opens.label, opens.rule) == ("correct", "opens_with_gold")
    # A second name beside it, a denial, a qualifier or a doubt leaves it to the judge; so do
    # a name alone before a comma, a one-word gold and a question between options.
    for pred in (
        "Lynn Shelton and Mark Duplass directed it.",
        "Lynn Shelton, Mark Duplass.",
        "Lynn Shelton didn't direct it; Mark Duplass did.",
        "Lynn Shelton is usually credited as director.",
        "Lynn Shelton probably directed it.",
    ):
        assert opening_outcome(q, ["lynn shelton"], pred) is None, pred
    assert opening_outcome("who sang it?", ["adele"], "Adele sang it in 2015.") is None
    older = "who is older, brad pitt or leonardo dicaprio?"
    assert opening_outcome(older, ["brad pitt"], "Brad Pitt is younger.") is None


def test_a_whole_number_the_golds_fraction_rounds_to() -> None:
    out = value_outcome(["15.52"], "Gap's P/E ratio is approximately 16.")
    assert out is not None and out.label == "correct"
    # A small figure's whole number is too far off to be its rounding.
    low = value_outcome(["$2.16"], "It trades around $2.")
    assert low is not None and low.label == "incorrect"


def test_a_reasoning_chooses_an_option_in_its_conclusion() -> None:
    q = "which film had the bigger budget, inside out or finding dory?"
    pred = (
        "Inside Out had a budget of about $175 million, while Finding Dory cost about $200 million."
    )
    concluded = comparison_outcome(
        q, ["finding dory"], pred + " So Finding Dory had the bigger budget."
    )
    assert concluded is not None and concluded.label == "correct"
    other = comparison_outcome(q, ["finding dory"], pred + " So Inside Out had the bigger budget.")
    assert other is not None and other.label == "incorrect"
    # A conclusion that names no option leaves the pick to the sentence the answer opens with.
    vague = comparison_outcome(q, ["finding dory"], pred + " So the gap was small.")
    assert vague is not None and vague.label == "incorrect"
    # A closing "which makes it X" clause concludes as "So" does.
    which = "Inside Out cost $175 million and Dory $200 million, which makes it Finding Dory."
    closed = comparison_outcome(q, ["finding dory"], which)
    assert closed is not None and closed.label == "correct"


def test_a_bulleted_list_run_together_by_a_rewrap_is_read_by_its_items() -> None:
    gold = ["up!, now, and queen of me"]
    wrapped = "The last three albums are: - Queen of Me (2023)\n- Now (2017) - Up! (2002)"
    out = list_outcome(gold, wrapped)
    assert out is not None and out.label == "correct", out
    wrong = "The top three are: -\nGood Will Hunting (97%) - Argo (96%) - The Town (92%)"
    missed = list_outcome(["good will hunting, argo, and gone baby gone"], wrong)
    assert missed is not None and missed.label == "incorrect", missed


def test_a_bulleted_list_is_read_by_its_lines() -> None:
    gold = ["jeff mangum, julian koster, scott spillane, and jeremy barnes"]
    lineup = (
        "Neutral Milk Hotel's classic lineup:\n- Jeff Mangum: vocals, guitar, songwriter\n"
        "- Julian Koster: bass, singing saw\n- Scott Spillane: horns\n- Jeremy Barnes: drums"
    )
    out = list_outcome(gold, lineup)
    assert out is not None and out.label == "correct", out
    short = list_outcome(gold, lineup.rsplit("\n", 1)[0])
    assert short is not None and short.label == "incorrect"
    # Several names on one line before its detail are several items.
    golfers = ["nicklaus, woods, palmer, snead"]
    listed = "- Jack Nicklaus: 6\n- Tiger Woods: 5\n- Arnold Palmer, Sam Snead: 4 or fewer"
    both = list_outcome(golfers, listed)
    assert both is not None and both.label == "correct", both
    # A head that several lines share is a series' name; the item follows it.
    films = ['"divergent", "insurgent", and "allegiant"']
    series = (
        "Three films:\n- Divergent (2014)\n- The Divergent Series: Insurgent (2015)\n"
        "- The Divergent Series: Allegiant (2016)"
    )
    named = list_outcome(films, series)
    assert named is not None and named.label == "correct", named
    one_short = list_outcome(films, series.rsplit("\n", 1)[0])
    assert one_short is not None and one_short.label == "incorrect"


def test_the_end_of_a_season_is_no_guess() -> None:
    decline = "I couldn't find a total. The game log for the 2022-23 season would let you add it."
    assert guessed_values(["1825"], decline) == []
    assert guessed_values(["1825"], "I can't be sure, but it was about 1,800.") != []


def test_a_number_in_a_name_the_gold_writes_is_no_guess() -> None:
    gold = ["there were 73 stunt doubles in rush hour 2."]
    query = "how many stunt doubles were in the second rush hour movie?"
    decline = "I can't determine how many stunt doubles were used in Rush Hour 2."
    assert guessed_values(gold, decline, query) == []
    guess = "I can't be sure, but Rush Hour 2 used about 70."
    assert [v.text for v in guessed_values(gold, guess, query)] == ["70"]


def test_list_items_past_a_colon_label_or_relative_clause() -> None:
    # Words before a colon that are themselves items are no lead-in to strip.
    gold = ['"shrek", "shrek 2", "shrek the third", and "shrek forever after"']
    pred = "Shrek, Shrek 2, Shrek the Third, Shrek Forever After, Puss in Boots: The Last Wish"
    extra = list_outcome(gold, pred)
    assert extra is not None and extra.detail == "0 gold item(s) missing, 1 item(s) added"
    both = list_outcome(
        ["detective knight: independence, assassin"], "assassin and detective knight: independence."
    )
    assert both is not None and both.label == "correct"
    # A lead-in with a verb, or one long phrase, still is one.
    pred = "Isla Fisher and Sacha Baron Cohen have three children: Olive, Elula, and Montgomery."
    kids = list_outcome(["olive, elula, montgomery"], pred)
    assert kids is not None and kids.label == "correct"
    # A bullet's head that labels a slot ("59th:") names no item; what follows does.
    pred = "Here are the winners:\n- 59th: Chance the Rapper\n- 60th: Alessia Cara"
    pred += "\n- 61st: Dua Lipa"
    slots = list_outcome(["chance the rapper, alessia cara, dua lipa"], pred)
    assert slots is not None and slots.label == "correct"
    # What a relative clause lists is its own detail.
    gold = ["amgen inc., honeywell international inc., salesforce, inc."]
    pred = "Salesforce, Amgen and Honeywell, which replaced ExxonMobil, Pfizer and Raytheon."
    added = list_outcome(gold, pred)
    assert added is not None and added.label == "correct"
    wrong = list_outcome(gold, "Salesforce, Amgen and Pfizer, which replaced Honeywell.")
    assert wrong is not None and wrong.label == "incorrect"
    # A role and the actor who played it are one item; a wrong actor is still wrong.
    gold = ["seth rogen, bill hader"]
    pred = "The officers are Officer Michaels, played by Seth Rogen, and Officer Slater, played by "
    cast = list_outcome(gold, pred + "Bill Hader.", "who plays the officers in superbad?")
    assert cast is not None and cast.label == "correct"
    miscast = list_outcome(gold, pred + "Jonah Hill.", "who plays the officers in superbad?")
    assert miscast is not None and miscast.label == "incorrect"
    # A count before the colon announces the list; it is not an item of it.
    pred = "As of today, three: Jack Nicklaus (6), Tiger Woods (5) and Arnold Palmer (4)."
    counted = list_outcome(["jack nicklaus, tiger woods, arnold palmer"], pred)
    assert counted is not None and counted.label == "correct"
    short = list_outcome(["jack nicklaus, tiger woods, arnold palmer, gary player"], pred)
    assert short is not None and short.label == "incorrect"


def test_the_partner_of_the_one_asked_about() -> None:
    gold = "rihanna and eminem co-headlined the monster tour in 2014"
    assert partner_named(gold, "who did rihanna co-headline a tour with?") == "eminem"
    # Not a question after a partner, or no pair that did something together.
    assert partner_named(gold, "who headlined the monster tour?") is None
    assert partner_named("jay-z and beyonce married in 2008", "who did beyonce marry?") is None
    assert partner_named("the tour was a hit and sold out", "who did she tour with?") is None


def test_the_kind_of_thing_a_definition_says_its_term_is() -> None:
    gold = "a roth ira is an individual retirement account to which you contribute after-tax"
    assert defined_genus(gold, "what is a roth ira?") == "individual retirement account"
    roi = "return on investment (roi) is a performance measure used to evaluate efficiency"
    assert defined_genus(roi, "what is an roi?") == "performance measure"
    # Not a definition of what the question asks about, or a figure in the kind.
    assert defined_genus("paris is the capital of france", "what is the capital of france?") is None
    prime = "a prime number is a natural number greater than 1 which has two factors"
    assert defined_genus(prime, "what is a prime number?") is None


def test_the_place_a_gold_names_before_its_country() -> None:
    assert place_before_country("los angeles, usa") == "los angeles"
    assert place_before_country("london, uk.") == "london"
    assert place_before_country("new york, $105,226") is None  # a figure, not a country
    assert place_before_country("smith, john") is None


def test_a_yes_no_question_answered_by_stating_it_is_so() -> None:
    query = "is in darkness how that movie was officially named at first?"
    stated = 'The movie was officially named "In Darkness" at first.'
    said = affirmation_outcome(query, ["yes"], stated)
    assert said is not None and said.label == "correct"
    wrong = affirmation_outcome(query, ["no"], stated)
    assert wrong is not None and wrong.label == "incorrect"
    # A denial, a doubt, a condition or a word of the question left out says no plain yes.
    for reply in (
        'The movie was not officially named "In Darkness" at first.',
        'The movie was probably officially named "In Darkness" at first.',
        'If it is the 2018 film, the movie was officially named "In Darkness" at first.',
        'The movie was named "In Darkness".',
    ):
        assert affirmation_outcome(query, ["yes"], reply) is None, reply
    # Only a bare yes/no gold, and no question between options.
    assert affirmation_outcome(query, ["yes, it was"], stated) is None
    options = "was the movie named in darkness or into darkness at first?"
    assert (
        affirmation_outcome(options, ["yes"], "The movie was named In Darkness at first.") is None
    )


def test_a_one_sentence_reply_that_restates_the_question_around_the_gold_name() -> None:
    query = "do you know who the director of parkland is?"
    gold = ["peter landesman"]
    said = restated_with_gold(query, gold, "Parkland (2013) was directed by Peter Landesman.")
    assert said is not None and said.label == "correct"
    for reply in (
        "Parkland was directed by Peter Landesman and Tom Hanks.",  # a word of its own
        "Parkland was probably directed by Peter Landesman.",  # doubt
        "Parkland was not directed by Peter Landesman.",  # a denial
        "Parkland was directed by Peter Landesman. He also wrote it.",  # a second sentence
        "Parkland (the remake) was directed by Peter Landesman.",  # an aside that names
    ):
        assert restated_with_gold(query, gold, reply) is None, reply


def test_a_year_labelling_a_work_is_no_second_date_for_the_day_asked() -> None:
    reply = "Sam Mendes was born on August 1, 1965. He directed *American Beauty* (1999)."
    out = value_outcome(["8/1/65"], reply, "when was sam mendes born?")
    assert out is not None and out.label == "correct"
    # A year standing on its own is a second date: the judge reads it.
    assert value_outcome(["8/1/65"], "Born August 1, 1965, or 1966.", "when?") is None
    # A year asked for is not set aside: "(1999)" answers "when did it come out?".
    out = value_outcome(["1999"], "*American Beauty* (1999)", "when did it come out?")
    assert out is not None and out.label == "correct"


def test_a_rough_gold_leaves_a_near_figure_to_the_judge_and_rules_out_a_far_one() -> None:
    gold = ["~13% of the year"]
    near = value_outcome(gold, "13.5%", "what share of the year?")
    assert near is None
    same = value_outcome(gold, "13%", "what share of the year?")
    assert same is not None and same.label == "correct"
    far = value_outcome(gold, "25%", "what share of the year?")
    assert far is not None and far.label == "incorrect"


def test_a_title_setting_the_options_against_each_other_is_not_the_pick() -> None:
    query = "who has more spotify plays, drake or taylor swift?"
    gold = ["taylor swift is the most-streamed artist on spotify"]
    titled = "Spotify Plays: Drake vs. Taylor Swift.\n\nTaylor Swift has more Spotify plays."
    out = comparison_outcome(query, gold, titled)
    assert out is not None and out.label == "correct"
    wrong = comparison_outcome(query, gold, "Drake vs. Taylor Swift.\n\nDrake has more plays.")
    assert wrong is not None and wrong.label == "incorrect"


def test_a_reply_cut_at_a_columns_width_inside_the_gold_is_the_gold() -> None:
    gold = ["the long walk home: letters from the front"]
    clipped = clipped_gold_outcome(gold, "The Long Walk Home: Lett")
    assert clipped is not None and clipped.label == "correct" and clipped.rule == "clipped_gold"
    # Whole words only, too little of the cut word, one word, another title, a list gold: no.
    assert clipped_gold_outcome(gold, "The Long Walk Home") is None
    assert clipped_gold_outcome(gold, "The Long Walk Home: Le") is None
    assert clipped_gold_outcome(gold, "The Long Wa") is None
    assert clipped_gold_outcome(gold, "The Long Walk Back") is None
    assert clipped_gold_outcome(["pfizer, amgen and merck"], "Pfizer, Amgen an") is None
