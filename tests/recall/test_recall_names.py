"""People as a person names them: speakers matched regardless of case, transliteration and one typo,
never through a common word, the reading said in the answer; several named people prefer the
conversations in which they all speak."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest

from core.recall.names import close, folded, read_names, within_one
from core.turns import Turn
from tests.helpers.recall import NOW, ConceptEmbedder, indexed, recaller, turn

DAY = NOW - timedelta(days=2)


# Twelve turns of an unrelated conversation, so that the words the tests ask about are rare in the log.
TRAINS = [(f"x{i}", "Tom", f"The train was late again, number {i}") for i in range(12)]


def conversation(rows: list[tuple[str, str, str]]) -> list[Turn]:
    """(session, speaker, text) rows as turns a minute apart from ``DAY``."""
    return [turn(DAY + timedelta(minutes=i), text, session=session, actor=actor)
            for i, (session, actor, text) in enumerate(rows)]


@pytest.fixture
def painters(paths):
    """Three conversations about painting: Caroline with Melanie, Caroline with John, Melanie with
    Grace. The turns that say most about painting are not Caroline's."""
    rows = [
        ("s1", "Caroline", "I painted a small lake at sunrise"),
        ("s1", "Melanie", "Lovely, I like the colours"),
        ("s2", "John", "My painting class was all about portraits, painting faces"),
        ("s2", "Caroline", "Sounds fun"),
        ("s3", "Grace", "My painting of the harbour is finished, a painting for my mother"),
        ("s3", "Melanie", "She will love the painting"),
        ("s4", "Grace", "The grade for the exam came back"),
        ("s4", "Grace", "A good grade, better than last year"),
        ("s4", "Grace", "The best grade of the class"),
    ]
    rows += TRAINS  # painting is rare
    turns = conversation(rows)
    embedder = ConceptEmbedder()
    index = indexed(paths, turns, embedder)
    yield recaller(index, embedder)
    index.close()


@pytest.mark.parametrize(("query", "note"), [
    ("what did Karoline say about painting?", "read 'Karoline' as Caroline"),
    ("what did Carolnie say about painting?", "read 'Carolnie' as Caroline"),
    ("what did caroline say about painting?", None),
    ("what did CAROLINE say about painting?", None),
])
def test_a_name_as_the_person_spells_it_favours_that_speaker(painters, query, note):
    answer = painters.search(query, now=NOW, zone=UTC, limit=3)
    assert [item.session in ("s1", "s2") for item in answer.results] == [True, True, True]  # not Grace's
    assert "I painted a small lake at sunrise" in [item.text for item in answer.results]
    if note is None:
        assert answer.note is None or "read '" not in answer.note
    else:
        assert note in answer.notes and note in (answer.note or "")


def test_a_common_word_of_the_log_is_never_read_as_a_name(painters):
    answer = painters.search("what grade did the painting get?", now=NOW, zone=UTC, limit=3)
    assert not any(n.startswith("read 'grade'") for n in answer.notes)
    readings = read_names(["grade"], ["Grace"], frequency=lambda word: 3)
    assert readings == []
    assert [r.actor for r in read_names(["grade"], ["Grace"], frequency=lambda word: 0)] == ["Grace"]


def test_two_named_people_prefer_the_conversation_in_which_both_speak(painters):
    answer = painters.search("what did Caroline and Melanie say about painting?", now=NOW, zone=UTC,
                                       limit=1)
    assert answer.results[0].session == "s1"


def test_two_named_people_misspelt_are_both_read(painters):
    answer = painters.search("what did karoline and Melany say about painting?", now=NOW, zone=UTC,
                                       limit=1)
    assert answer.results[0].session == "s1"
    assert "read 'karoline' as Caroline" in answer.notes and "read 'Melany' as Melanie" in answer.notes


@pytest.mark.parametrize(("word", "name", "same"), [
    ("Karoline", "Caroline", True),  # c/k
    ("Filip", "Philip", True),  # ph/f
    ("Melany", "Melanie", True),  # y/i and one letter
    ("Jon", "John", True),  # an h after a letter
    ("Johanna", "Joanna", True),
    ("Annna", "Anna", True),  # doubled letters
    ("Carolnie", "Caroline", True),  # two neighbours swapped
    ("Carolina", "Caroline", True),  # one letter replaced, 5+ letters
    ("Kata", "Kate", False),  # one letter on a short name: too many names are that close
    ("Nate", "Kate", False),
    ("Mel", "Melanie", False),
    ("Gracious", "Grace", False),
    ("games", "James", False),  # one edit, but a typo keeps the first letter
    ("names", "James", False),
    ("Andew", "Andrew", True),
    ("Naet", "Nate", True),  # a short name: two neighbours swapped
    ("Nste", "Nate", True),  # ... or one letter replaced by the key beside it
    ("Tmi", "Tim", True),
    ("Nore", "Nate", False),  # two letters replaced
    ("Nave", "Nate", False),  # v is not beside t
    ("Ti", "Tim", False),
])
def test_close_names(word, name, same):
    assert close(word, name) is same


def test_folded_forms_and_one_edit():
    assert folded("Caroline") == folded("karoline") == "karoline"
    assert folded("민지") == "민지"
    assert within_one("abcde", "abdce") and within_one("abc", "abcd") and within_one("abcd", "abd")
    assert not within_one("abcd", "badc") and not within_one("abc", "abcde")


def test_read_names_prefers_a_name_as_written():
    readings = read_names(["Kate", "Cate"], ["Kate", "Cate Blanc"])
    assert [(r.actor, r.word, r.exact) for r in readings] == [("Kate", "Kate", True), ("Cate Blanc", "Cate", True)]
    assert read_names(["the", "what"], ["Thea"], stopwords=frozenset({"the", "what"})) == []


def test_reading_names_and_the_together_rule_can_be_switched_off_for_ablations(paths):
    from core.config import RecallConfig
    from core.recall import Recaller
    from core.recall.scoring import Ranking

    index = indexed(paths, [turn(DAY, "I painted a lake", session="s1", actor="Caroline")])
    plain = Recaller(index, RecallConfig(), zone=UTC, ranking=Ranking(read_names=False, named_together=False))
    assert plain.search("what did Karoline paint?", now=NOW, zone=UTC).notes == ()
    assert Recaller(index, RecallConfig(), zone=UTC).search("what did Karoline paint?", now=NOW,
                                                            zone=UTC).notes == ("read 'Karoline' as Caroline",)
    index.close()


def test_a_short_name_typed_with_one_slip_is_read_as_the_name(painters):
    readings = read_names(["Tmi", "Jhon", "Jonh"], ["Tim", "John"], frequency=lambda word: 0)
    assert [(r.actor, r.word) for r in readings] == [("Tim", "Tmi"), ("John", "Jhon"), ("John", "Jonh")]
    assert read_names(["Tom"], ["Tim"], frequency=lambda word: 3) == []  # a word of the log stays a word
    answer = painters.search("what did Jonh say about painting?", now=NOW, zone=UTC, limit=1)
    assert "read 'Jonh' as John" in answer.notes and answer.results[0].session == "s2"


def test_a_name_the_index_holds_as_the_same_token_is_read_however_often_it_is_mentioned(paths):
    """'Melany' is stemmed as 'Melanie' is ('melani'): the turns that mention Melanie are the name's,
    not evidence that 'Melany' is a word of the log."""
    rows = [("s1", "Melanie", "I painted a lake at sunrise"), ("s1", "Caroline", "Lovely, the colours")]
    rows += [(f"c{i}", "Caroline", f"Melanie told me about the train, number {i}") for i in range(4)]
    rows += [("s2", "Caroline", "My painting of a lake is finished, a painting for my mother")]
    turns = conversation(rows)
    index = indexed(paths, turns, ConceptEmbedder())
    answer = recaller(index, ConceptEmbedder()).search("what did Melany say about painting?", now=NOW,
                                                        zone=UTC, limit=1)
    assert "read 'Melany' as Melanie" in answer.notes
    assert answer.results[0].text == "I painted a lake at sunrise"
    index.close()


def test_the_speakers_one_word_may_name_are_one_person(paths):
    """'Jonn' reads as John and as Jon: with Gina, the conversation in which Gina speaks with either of
    them is the one in which the two named people speak together."""
    rows = [("s1", "Jon", "We painted the studio wall"), ("s1", "Gina", "It looks great"),
            ("s2", "John", "Painting is not for me"), ("s2", "Tim", "Indeed"),
            ("s3", "Gina", "My painting class: painting faces, painting portraits"), ("s3", "Maria", "Fun")]
    rows += TRAINS
    turns = conversation(rows)
    index = indexed(paths, turns, ConceptEmbedder())
    answer = recaller(index, ConceptEmbedder()).search("what did Jonn and Gina say about painting?", now=NOW,
                                                        zone=UTC, limit=4)
    assert "read 'Jonn' as John" in answer.notes and "read 'Jonn' as Jon" in answer.notes
    order = [item.session for item in sorted(answer.results, key=lambda item: -item.score)]
    assert order.index("s1") < order.index("s3")  # Gina with Jon, before Gina with Maria
    index.close()



def test_a_name_that_is_one_speakers_is_read_second_as_a_close_name():
    """'Jon' is Jon's name as written and John's written the short way: read as both, Jon first."""
    readings = read_names(["Jon", "Tim"], ["Jon", "John", "Tim"])
    assert [(r.actor, r.word, r.exact, r.also) for r in readings] == [
        ("Jon", "Jon", True, None), ("John", "Jon", False, "Jon"), ("Tim", "Tim", True, None)]
    assert readings[1].note() == "read 'Jon' as Jon, also as John"
    assert readings[0].note() is None
    assert read_names(["Kate"], ["Kate", "Nate"]) == [read_names(["Kate"], ["Kate"])[0]]  # not close
    # a longer name is not read as a shorter one: nobody adds an h by accident
    assert [(r.actor, r.exact) for r in read_names(["John"], ["Jon", "John"])] == [("John", True)]


@pytest.fixture
def jons(paths):
    """Jon talks with Gina about painting, John with Tim about skiing; Grace says most about skiing."""
    rows = [("s1", "Jon", "We painted the studio wall"), ("s1", "Gina", "It looks great"),
            ("s2", "John", "I went skiing in the alps last winter"), ("s2", "Tim", "Was it cold?"),
            ("s3", "Grace", "Skiing in the alps, skiing every winter, skiing is my life"), ("s3", "Maria", "Fun"),
            ("s4", "John", "We painted the studio wall"), ("s4", "Tim", "It looks great")]
    rows += TRAINS
    turns = conversation(rows)
    index = indexed(paths, turns, ConceptEmbedder())
    yield recaller(index, ConceptEmbedder())
    index.close()


@pytest.mark.parametrize("mode", ["auto", "exact", "semantic"])
def test_a_name_read_second_still_finds_that_person(jons, mode):
    answer = jons.search("what did Jon say about skiing?", now=NOW, zone=UTC, limit=2, mode=mode)
    assert "read 'Jon' as Jon, also as John" in answer.notes
    assert max(answer.results, key=lambda item: item.score).text == "I went skiing in the alps last winter"


@pytest.mark.parametrize("mode", ["auto", "exact", "semantic"])
def test_the_name_as_written_counts_more_than_its_second_reading(jons, mode):
    answer = jons.search("what did Jon say about the painted wall?", now=NOW, zone=UTC, limit=4, mode=mode)
    best = max(answer.results, key=lambda item: item.score)
    assert (best.actor, best.session) == ("Jon", "s1")
    scores = {item.session: item.score for item in answer.results if item.text == "We painted the studio wall"}
    assert scores["s1"] > scores["s4"] > 0


def test_a_second_reading_counts_less_among_two_named_people(jons):
    """'Jon and Tim': John speaks with Tim (s2, s4), Jon never does; the sessions of John and Tim are
    where both may speak, ahead of Grace's, and the note says how 'Jon' was read."""
    answer = jons.search("what did Jon and Tim say about skiing?", now=NOW, zone=UTC, limit=3)
    assert "read 'Jon' as Jon, also as John" in answer.notes
    assert max(answer.results, key=lambda item: item.score).session == "s2"
