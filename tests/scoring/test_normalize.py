"""Answer normalisation: each rule of the issue, and that it never merges different answers."""

from __future__ import annotations

import pytest

from ragmeter.scoring.normalize import (
    answer_sentence,
    as_bpe_decoded,
    as_detokenized,
    as_form_decoded,
    as_spaced,
    as_unescaped,
    as_written,
    bracket_labels_as_text,
    capitals_as_names,
    contains_in_order,
    is_chat_opener,
    normalize_answer,
    normalize_text,
    repaired_mojibake,
    strip_citation_markers,
    strip_markup,
    tokens,
    without_chat,
    without_markdown_escapes,
    without_repeated_lines,
    without_sms_frame,
    without_terminal_codes,
)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The Beatles", "beatles"),  # case and articles
        ("Finding Nemo!", "finding nemo"),  # punctuation
        ("  new   york ", "New York"),  # white space
        ("twenty-one", "21"),  # number words
        ("three", "3"),
        ("one hundred and five", "105"),
        ("a hundred", "100"),
        ("seventy-five thousand", "75,000"),  # words vs thousands separator
        ("1,234,567", "1234567"),
        ("1.2 million", "1,200,000"),
        ("2.50", "2.5"),
        ("3.0", "3"),
        ("Beyoncé", "beyonce"),  # accents
        ("don't", "dont"),
        ("it’s", "its"),  # curly apostrophe
        ("25%", "25 percent"),
        ("first", "1st"),
    ],
)
def test_equivalent(a: str, b: str) -> None:
    assert normalize_answer(a) == normalize_answer(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("21", "22"),
        ("1 2", "12"),  # separate numbers stay separate
        ("one two", "12"),
        ("-5", "5"),  # the sign survives
        ("3.5", "35"),  # a decimal point is not punctuation
        ("1,23", "123"),  # a comma before two digits is not a thousands separator
        ("second", "2nd"),  # left alone on purpose (unit of time)
    ],
)
def test_different(a: str, b: str) -> None:
    assert normalize_answer(a) != normalize_answer(b)


def test_text_normalisation_keeps_words() -> None:
    assert normalize_text("I DON'T know…") == "i dont know"
    assert normalize_text("") == ""


def test_tokens_without_articles() -> None:
    assert tokens("The answer is an apple") == ["answer", "is", "apple"]


def test_content_words_in_order() -> None:
    pred = "It will be held at MetLife Stadium in East Rutherford, New Jersey."
    assert contains_in_order(pred, "metlife stadium in new jersey")
    park = "Wrangell-St. Elias Park and Preserve"
    assert contains_in_order(park, "wrangell-st. elias park & preserve")
    assert not contains_in_order("New Jersey, not MetLife Stadium", "metlife stadium in new jersey")
    # Words far apart are no statement of the name.
    far = "New plans were made for the old stadium of the city of York."
    assert not contains_in_order(far, "new york")


def test_source_markers_are_dropped() -> None:
    assert strip_citation_markers("Its P/E ratio is approximately 16 [1].") == (
        "Its P/E ratio is approximately 16."
    )
    assert strip_citation_markers("A and B [1][2], C [3, 4] and D [2-4].") == "A and B, C and D."
    # A brief's citations of the documents, with their parentheticals.
    brief = (
        "He was born on June 28, 1926. See Doc. 1 (Wikipedia article on Mel Brooks). "
        "Accord Doc. 3 (Biography.com, Jan. 2024) (same date)."
    )
    assert strip_citation_markers(brief) == "He was born on June 28, 1926."
    assert strip_citation_markers("See the docs for details.") == "See the docs for details."
    # The Gemini app's grounding markup.
    gemini = "[cite_start]He was born on **October 14, 1978**[cite: 15], so he is 45."
    assert strip_citation_markers(gemini) == "He was born on **October 14, 1978**, so he is 45."
    # An assistants API's file-search annotations; their digits are no figure either.
    annotated = (
        "a ratio of 4.6 to 1\u30104:0\u2020page_1.html\u3011, 23 in all\u30104:1\u2020f\u3011."
    )
    assert strip_citation_markers(annotated) == "a ratio of 4.6 to 1, 23 in all."
    # A knowledge-base assistant's unrendered chunk markers.
    assert strip_citation_markers("It was relit in 2019 ##1$$ ##4$$.") == "It was relit in 2019."
    # A graph-based RAG's data references, whole or cut off by the 75-token limit.
    graph = "BONDS (762) and AARON (755) [Data: Sources (2, 5); Entities (4, 9, +more)]."
    assert strip_citation_markers(graph) == "BONDS (762) and AARON (755)."
    assert strip_citation_markers("BONDS (762) [Data: Entities (1, 2, 4, ") == "BONDS (762)"
    # An active-retrieval model's lookups, whole or cut off; a call showing its result stays.
    flare = "It reopened on [Search(Tamsworth Lock reopening date)] June 4, 2019."
    assert strip_citation_markers(flare) == "It reopened on June 4, 2019."
    assert strip_citation_markers("[Search(Lloyd Simandl born)] [Search(Lloyd Sim") == ""
    assert strip_citation_markers("[Calculator(4/2) \u2192 2]") == "[Calculator(4/2) \u2192 2]"
    # A support desk's ticket number is no figure.
    assert strip_citation_markers("passed on (ticket #48213).") == "passed on (ticket)."
    # A Self-RAG model's reflection tokens grade itself; its doubt stays.
    graded = "[Relevant]It opened in 1887.[No support / Contradictory][Utility:3]"
    assert strip_citation_markers(graded) == "It opened in 1887.[No support / Contradictory]"
    # A source named by its number: the number is no figure.
    assert (
        strip_citation_markers("We see passage 1 lists 11 teams.")
        == "We see a passage lists 11 teams."
    )
    assert strip_citation_markers("result 2.5 holds") == "result 2.5 holds"
    assert strip_citation_markers("as noted [^1]") == "as noted"
    # A tally of sources, with the dissent it reports, is no part of the answer.
    assert strip_citation_markers("John Wick: Chapter 4 (5/5 sources)") == "John Wick: Chapter 4"
    tally = "1929 to 1939 (4/5 sources; 1 says 1929 to 1941)."
    assert strip_citation_markers(tally) == "1929 to 1939."
    assert strip_citation_markers("Home (3 of 5 passages)") == "Home"
    assert strip_citation_markers("Won 5 (of 7 finals)") == "Won 5 (of 7 finals)"
    # Brackets that belong to the text stay: an index, a link, a word.
    assert strip_citation_markers("array[1](x)") == "array[1](x)"
    assert strip_citation_markers("[1]abc") == "[1]abc"


def test_markup_is_no_part_of_the_answer() -> None:
    text = "The *Fast & Furious* films:\n1. **Fast Five** (2011)\n2. F9\n\nSources: [1] imdb.com"
    assert strip_markup(text) == "The Fast & Furious films:\n- Fast Five (2011)\n- F9\n"
    assert strip_markup("Films:\n* Fast Five\n* F9") == "Films:\n- Fast Five\n- F9"
    # Arithmetic keeps its star; a "Sources" word inside a sentence stays.
    assert strip_markup("2*3 = 6") == "2*3 = 6"
    # One numbered line is no list: "20." is the answer.
    assert strip_markup("20. No doubt about it.") == "20. No doubt about it."
    assert strip_markup("Sources: none of them agree") == "Sources: none of them agree"


def test_headings_and_slot_labels_are_read_as_plain_text() -> None:
    # A heading over more text ends as a sentence; a heading alone is just its text.
    docket = "### Toshio Kai, Shigeichi Ishimura\n*Credited with the music.*"
    assert strip_markup(docket) == "Toshio Kai, Shigeichi Ishimura.\nCredited with the music."
    assert strip_markup("### Yes") == "Yes"
    assert strip_markup("## Members:\n- Steven Tyler") == "Members:\n- Steven Tyler"
    # A slot filler's question-word labels go from every line; a colon inside a line stays.
    assert strip_markup("What: Yes\nWho: Jay-Z, Limp Bizkit") == "Yes\nJay-Z, Limp Bizkit"
    assert strip_markup("How many: 7 albums") == "7 albums"
    # A pipeline's output field is an answer label, after a colon or a spaced dash.
    assert strip_markup("Result: Denis Villeneuve") == "Denis Villeneuve"
    assert strip_markup("Final Answer - Denis Villeneuve") == "Denis Villeneuve"
    assert strip_markup("Answer -5 degrees") == "Answer -5 degrees"
    # A highlight is emphasis; "==" between operands stays.
    assert (
        strip_markup("It moved to ==Bergen== in ==Sept. 2019==.")
        == "It moved to Bergen in Sept. 2019."
    )
    assert strip_markup("if a==b") == "if a==b"
    assert strip_markup("Title: Who: The Musical") == "Title: Who: The Musical"


def test_tables_links_and_labels_are_read_as_plain_text() -> None:
    # A table's rows are list items (the first cell names the item, the rest is detail);
    # its rule line goes, and a row cut short is still an item.
    table = "| Team | Pts |\n|---|---|\n| Real Madrid | 18 |\n| Napoli | 10 |\n| Braga ("
    assert strip_markup(table) == "Team, Pts:\n- Real Madrid (18)\n- Napoli (10)\n- Braga ("
    # A link reads as its text; addresses, footnote notes and a closing list of sources go,
    # so the dates and ids in a path are no figure of the answer.
    linked = (
        "Opened **Sept 28, 2012**.[^1] See [Box Office Mojo](https://x.com/title/tt1981677/)."
        "\n\n[^1]: https://www.boxofficemojo.com/2012/09/28/\n\nSources:\n- https://a.com/1\n"
        "- https://b.com/2024/03/12/"
    )
    assert strip_markup(linked) == "Opened Sept 28, 2012.[^1] See Box Office Mojo.\n\n\n"
    # A note or a list that states something is read: it may take the answer back.
    noted = "Paris.[^1]\n\n[^1]: Actually, no: it is Lyon."
    assert strip_markup(noted) == "Paris.[^1]\n\nActually, no: it is Lyon."
    stated = "Paris.\n\nSources:\n- Actually, that is wrong; it is Lyon."
    assert strip_markup(stated) == stated
    assert (
        strip_markup("Paris.\nSources: the answer is Lyon") == "Paris.\nSources: the answer is Lyon"
    )
    assert strip_markup("Nolan.\nSource: https://www.imdb.com/title/tt0468569/") == "Nolan."
    assert strip_markup("### Details\nIt is 1,122 m².") == "Details.\nIt is 1,122 m²."
    # An opening label names what follows; the same word later in the text stays.
    assert strip_markup("**Short answer:** No. The answer: yes.") == "No. The answer: yes."
    assert strip_markup("TL;DR: 0 goals") == "0 goals"
    # A link the cut fell inside still reads as its text.
    cut = "[Babe Ruth](https://en.wikipedia.org/wiki/Babe_Ruth), [Albert Pujols](https://en"
    assert strip_markup(cut) == "Babe Ruth, Albert Pujols"
    # Closing suggested questions are for the user; a closing line that states stays.
    related = "~221,000 in 2023.\nRelated: Staff in 2024? · Where is it headquartered?"
    assert strip_markup(related) == "~221,000 in 2023."
    asked = "No clear answer found.\nPeople also ask:\n- Is it big?\n- Why?"
    assert strip_markup(asked) == "No clear answer found."
    assert strip_markup("Paris.\nRelated: Lyon is the answer.") == (
        "Paris.\nRelated: Lyon is the answer."
    )
    # A sentence that only points at a linked source is a citation too.
    pointer = "Djokovic. See [the official page](https://www.example.com/2019/07/04/99)."
    assert strip_markup(pointer) == "Djokovic."
    assert answer_sentence("Quick correction: it is set in WWII, not WWI.") == (
        "it is set in WWII, not WWI"
    )


def test_the_answer_sentence_comes_after_a_chat_opener() -> None:
    assert answer_sentence("Great question! **Paris** is the capital. It has 2M people.") == (
        "Paris is the capital"
    )
    assert answer_sentence("Nope! He never did.") == "Nope"  # an answer, not an opener
    assert answer_sentence("Sure thing!") == "Sure thing"
    assert is_chat_opener("Hmm, tough call!") and not is_chat_opener("Selena Gomez!")


def test_a_chat_replys_pleasantries_are_not_its_answer() -> None:
    said = "Great question! She has not won it yet. Let me know if you'd like a list of wins!"
    assert without_chat(said) == "She has not won it yet."
    assert without_chat("Sure! Paris.\nWould you like more detail?") == "Paris."
    assert without_chat("Paris. Hope this helps!") == "Paris."
    # A gateway's disclaimer under every reply says nothing of this one.
    assert without_chat("Paris.\n\nAI-generated content may be incorrect.") == "Paris."
    # A correction announced says something; pleasantries alone are left as they are.
    assert without_chat("Quick correction! It hit in 2024.") == "Quick correction! It hit in 2024."
    assert without_chat("Great question!") == "Great question!"
    assert without_chat("Enjoy the Silence is by Depeche Mode.") == (
        "Enjoy the Silence is by Depeche Mode."
    )


def test_a_form_encoded_reply_is_read_decoded() -> None:
    assert as_form_decoded("I+don%27t+know") == "I don't know"
    assert as_form_decoded("%C2%A34.5+million") == "£4.5 million"
    assert as_form_decoded("invalid+question") == "invalid question"
    assert as_written("May+16%2C+2023") == "May 16, 2023"
    # Text with spaces, or without a sign of the encoding, is as it was.
    for kept in ("1+1", "C++", "2023", "It rose 45%25 in a year"):
        assert as_form_decoded(kept) == kept


def test_a_text_message_services_frame_is_not_its_answer() -> None:
    said = "TextAsk: Yes - NBA games 48 mins, NCAA 40 mins. Reply MORE for details."
    assert without_sms_frame(said) == "Yes - NBA games 48 mins, NCAA 40 mins."
    parts = "TextAsk: (1/2) Latest album out 27 Oct 2023.\n(2/2) Next due 19 Apr 2024. Text STOP"
    assert without_sms_frame(parts) == "Latest album out 27 Oct 2023.\nNext due 19 Apr 2024."
    assert without_chat(said) == without_sms_frame(said)
    # Without a keyword footer a leading "Word: " may be the answer; a decline that ends "or
    # text HELP" keeps its words.
    for kept in ("Dune: released in 2021.", "TextAsk: Sorry, no answer found. Or text HELP."):
        assert without_sms_frame(kept) == kept


def test_names_in_capitals_are_read_as_names() -> None:
    graph = "NEUTRAL MILK HOTEL's lineup was JEFF MANGUM and MARC-ANDRÉ TER STEGEN."
    assert capitals_as_names(graph) == (
        "Neutral Milk Hotel's lineup was Jeff Mangum and Marc-André Ter Stegen."
    )
    # Acronyms side by side, one word in capitals and a reply all in capitals stay.
    for kept in ("Embiid won the NBA MVP.", "FC BARCELONA and ALLT", "PARIS IS THE ANSWER"):
        assert capitals_as_names(kept) == kept


def test_utf8_read_as_cp1252_is_repaired() -> None:
    assert repaired_mojibake("Thereâ€™s â€œSweetener.â€") == "There’s “Sweetener.”"
    assert repaired_mojibake("Aitana BonmatÃ­, Â£4.5 million, 2021â€“22") == (
        "Aitana Bonmatí, £4.5 million, 2021–22"
    )
    # Text already right stays as it is.
    assert repaired_mojibake("Café in Zürich — naïve") == "Café in Zürich — naïve"


def test_a_line_repeated_until_the_cap_is_read_once() -> None:
    assert without_repeated_lines("June 4, 2019\nJune 4, 2019\nJune 4, 20") == "June 4, 2019"
    assert without_repeated_lines("I don't know\nI don't know\nI don'") == "I don't know"
    for kept in ("Lyon\nLille", "Paris", "Paris\nParis is the capital."):
        assert without_repeated_lines(kept) == kept


def test_treebank_tokens_are_joined() -> None:
    assert as_detokenized("I do n't know") == "I don't know"
    assert as_detokenized("June 4 , 2019") == "June 4, 2019"
    assert as_detokenized("$ 86 million , 45 %") == "$86 million, 45%"
    assert as_detokenized("`` Glass Orchard '' -LRB- 2019 -RRB-") == '"Glass Orchard" (2019)'
    assert as_detokenized("Paris, in 1998.") == "Paris, in 1998."


def test_a_reply_saved_as_a_json_strings_inside_is_read_as_that_string() -> None:
    saved = r"Passage 1 says Ren\u00e9 paid \u00a34.5 million.\n\nHe paid \"\u00a34.5 million\"."
    assert (
        as_unescaped(saved) == 'Passage 1 says René paid £4.5 million.\n\nHe paid "£4.5 million".'
    )
    # Cut off inside an escape: what decodes before it.
    assert as_unescaped(r"It was 2021\u201322, then \u20") == "It was 2021–22, then "
    # A reply with line breaks of its own, or no escapes, is left as written.
    for kept in ("a\nb \\u00e9", "C:\\temp", "plain", r"\"Hello\" \boxed{\text{Adele}} \u00e9"):
        assert as_unescaped(kept) == kept


def test_a_bracket_label_template_reads_as_basis_then_answer() -> None:
    assert bracket_labels_as_text("【Answer】June 4, 2019【Basis】The notice says so.") == (
        "The notice says so. Answer: June 4, 2019"
    )
    assert (
        bracket_labels_as_text("【答案】无法确定【依据】没有提及。")
        == "没有提及。 Answer: 无法确定"
    )
    assert bracket_labels_as_text("Paris【4:0†page_1.html】") == "Paris【4:0†page_1.html】"


def test_byte_level_bpe_symbols_are_read_as_text() -> None:
    assert as_bpe_decoded("JuneĠ4,Ġ2019") == "June 4, 2019"
    assert as_bpe_decoded("NikolaĠJokiÄĩ") == "Nikola Jokić"
    assert as_bpe_decoded("Â£4.5Ġmillion") == "£4.5 million"
    for kept in ("June 4, 2019", "Paris", "Ġ is a letter in some words"):
        assert as_bpe_decoded(kept) == kept


def test_a_chat_apps_markdown_escapes_are_dropped() -> None:
    escaped = r"About *$191\.7 million* for Black Panther \(2018\)\."
    assert without_markdown_escapes(escaped) == "About *$191.7 million* for Black Panther (2018)."
    for kept in (r"C:\temp", r"one \. only"):
        assert without_markdown_escapes(kept) == kept


def test_a_terminals_colour_codes_are_dropped_with_or_without_their_escape() -> None:
    shown = "[32mIt reopened on [1mApril 18, 2022[22m.[0m\n[2msources: doc 2[0m"
    assert without_terminal_codes(shown) == "It reopened on April 18, 2022.\nsources: doc 2"
    assert without_terminal_codes("\x1b[31mI couldn't find it.\x1b[0m") == "I couldn't find it."
    # One bracketed "m" is no code: "[5m]" marks a note, "a [2m] wall" a length.
    for kept in ("A wall [2m] high.", "Room [3m"):
        assert without_terminal_codes(kept) == kept


def test_text_is_read_as_written_before_anything_else() -> None:
    assert as_written("IĠdoĠn'tĠknow") == "I don't know"
    assert as_written("He hadnâ€™t won\\.\nHe hadnâ€™t won\\.\nHe had") == "He hadn’t won."
    assert as_written("Paris, in 1998.") == "Paris, in 1998."


def test_a_list_with_its_spaces_deleted_is_spaced_again() -> None:
    assert as_spaced("TheWeeknd,TaylorSwiftandDrake") == "The Weeknd, Taylor Swift and Drake"
    godfather = "TheGodfather,TheGodfatherPartIIandTheGodfatherPartIII"
    assert as_spaced(godfather) == "The Godfather, The Godfather Part II and The Godfather Part III"
    # No list's signature: a name, a product, a sentence without capitals, spaced text.
    for text in ("McDonald's", "iPhone15ProMax", "Atax-advantagedretirementaccount", "A, B"):
        assert as_spaced(text) == text
