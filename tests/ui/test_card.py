from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dealer_console.cards import CardError, parse_cards
from tests.ui.shown_cards import NOTATION, shown_cards
from ui import theme
from ui.widgets.card import CardRow, CardView, card_width
from ui.widgets.card_text import symbols


def _colours(view: CardView, qtbot: QtBot, height: int = 140) -> set[str]:
    """Every colour painted, to the nearest palette entry of interest."""
    qtbot.addWidget(view)
    view.resize(card_width(height), height)
    image: QImage = view.grab().toImage()
    seen = set()
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            seen.add(QColor(image.pixel(x, y)).name())
    return seen


def test_hearts_are_red_and_spades_black(themed: QApplication, qtbot: QtBot) -> None:
    hearts = _colours(CardView("Kh"), qtbot)
    spades = _colours(CardView("Ks"), qtbot)
    assert theme.SUIT_COLOURS["h"] in hearts and theme.SUIT_COLOURS["s"] not in hearts
    assert theme.SUIT_COLOURS["s"] in spades and theme.SUIT_COLOURS["h"] not in spades


def test_the_four_colour_deck_paints_diamonds_blue_and_clubs_green(themed: QApplication,
                                                                    qtbot: QtBot) -> None:
    two = _colours(CardView("Qd"), qtbot)
    four = _colours(CardView("Qd", four_colour=True), qtbot)
    clubs = _colours(CardView("Qc", four_colour=True), qtbot)
    assert theme.FOUR_COLOUR_SUITS["d"] in four and theme.FOUR_COLOUR_SUITS["d"] not in two
    assert theme.SUIT_COLOURS["d"] in two
    assert theme.FOUR_COLOUR_SUITS["c"] in clubs


def test_joker_face_down_selected_and_dimmed_each_look_different(themed: QApplication,
                                                                  qtbot: QtBot) -> None:
    assert theme.JOKER_COLOUR in _colours(CardView("JK"), qtbot)
    back = _colours(CardView("As", face_down=True), qtbot)
    assert theme.CARD_BACK in back and theme.SUIT_COLOURS["s"] not in back
    assert theme.SELECTED in _colours(CardView("As", selected=True), qtbot)
    assert theme.SELECTED not in _colours(CardView("As"), qtbot)
    dimmed = _colours(CardView("As", dimmed=True), qtbot)
    assert theme.CARD_FACE not in dimmed  # the white face is greyed


def test_a_card_knows_its_name_and_size(themed: QApplication) -> None:
    view = CardView("Th", height=210)
    assert view.sizeHint().height() == 210
    assert view.sizeHint().width() == card_width(210)
    assert 0.68 < card_width(210) / 210 < 0.76  # a playing card's proportions, plus its ring
    assert view.accessibleName() == "10 of hearts"
    view.set_selected(True)
    assert view.accessibleName() == "10 of hearts, selected"
    assert CardView("JK").accessibleName() == "joker"
    with pytest.raises(CardError, match="'Zz' is not a card"):
        CardView("Zz")


def test_tapping_a_card_in_a_row_gives_its_index(themed: QApplication, qtbot: QtBot) -> None:
    row = CardRow("As Kd 7h 7c 2s JK 9d")
    qtbot.addWidget(row)
    row.resize(row.sizeHint())
    row.show()
    with qtbot.waitSignal(row.tapped) as tapped:
        qtbot.mouseClick(row.views[3], Qt.MouseButton.LeftButton)
    assert tapped.args == [3]
    assert str(row.cards()[3]) == "7c"


def test_a_hand_set_low_and_high_counts_across_both_groups(themed: QApplication,
                                                           qtbot: QtBot) -> None:
    row = CardRow()
    row.set_groups([("Low", "Kd Jc"), ("High", "As Ah 9s 9h JK")])
    qtbot.addWidget(row)
    row.resize(row.sizeHint())
    row.show()
    assert row.cards() == parse_cards("Kd Jc As Ah 9s 9h JK")
    with qtbot.waitSignal(row.tapped) as tapped:
        qtbot.mouseClick(row.views[2], Qt.MouseButton.LeftButton)
    assert tapped.args == [2]  # the first card of the high hand
    low_right = row.views[1].geometry().right()
    high_left = row.views[2].geometry().left()
    gap_in_group = row.views[1].geometry().left() - row.views[0].geometry().right()
    assert high_left - low_right > 3 * gap_in_group  # the two hands stand apart


def test_a_bad_card_is_refused_and_the_row_keeps_its_cards(themed: QApplication) -> None:
    row = CardRow("As Kd")
    with pytest.raises(CardError, match="duplicate card"):
        row.set_groups([("Low", "As Kd"), ("High", "As 2c 3c 4c 5c")])
    with pytest.raises(CardError, match="'1x' is not a card"):
        row.set_cards("As 1x")
    assert row.cards() == parse_cards("As Kd")


def test_selected_dimmed_and_face_down_go_to_the_cards_named(themed: QApplication) -> None:
    row = CardRow("As Kd 7h")
    row.set_selected([0, 2])
    row.set_dimmed([1])
    row.set_face_down([2])
    assert [v.selected for v in row.views] == [True, False, True]
    assert [v.dimmed for v in row.views] == [False, True, False]
    assert [v.face_down for v in row.views] == [False, False, True]
    row.set_four_colour(True)
    assert all(v.four_colour for v in row.views)


def test_new_groups_show_fresh_cards_whatever_the_row_showed(themed: QApplication,
                                                             qtbot: QtBot) -> None:
    row = CardRow("As Kd 7h 7c 2s JK 9d")
    qtbot.addWidget(row)
    row.resize(row.sizeHint())
    row.show()
    row.set_selected([0, 1])
    row.set_dimmed([2])
    row.set_face_down([3])
    row.set_groups([("Low", "Kd 2c"), ("High", "As Ah 9s 9h JK")])
    assert row.cards() == parse_cards("Kd 2c As Ah 9s 9h JK")
    assert not any(v.selected or v.dimmed or v.face_down for v in row.views)
    assert row.views[1].accessibleName() == "2 of clubs"
    with qtbot.waitSignal(row.tapped) as tapped:
        qtbot.mouseClick(row.views[6], Qt.MouseButton.LeftButton)
    assert tapped.args == [6]
    row.set_groups([("Banker low", "3d 4d")])  # fewer cards: the rest leave the screen
    assert row.cards() == parse_cards("3d 4d")
    shown = [v for v in row.findChildren(CardView) if v.isVisible()]
    assert len(shown) == 2
    row.set_cards("5h 6h 7h")  # more again, the new one tappable at its index
    with qtbot.waitSignal(row.tapped) as tapped:
        qtbot.mouseClick(row.views[2], Qt.MouseButton.LeftButton)
    assert tapped.args == [2]


def test_cards_shrink_to_fit_a_narrow_row_and_stay_whole(themed: QApplication,
                                                         qtbot: QtBot) -> None:
    row = CardRow("As Kd 7h 7c 2s JK 9d", card_height=200)
    qtbot.addWidget(row)
    row.resize(500, 300)
    row.show()
    for view in row.views:
        assert view.geometry().right() < 500
        assert view.height() < 200
        assert view.width() == card_width(view.height())
    row.resize(2000, 300)
    assert all(view.height() == 200 for view in row.views)  # never beyond the height asked


@pytest.mark.parametrize("stored", ["2c Th JK As 9d", "Qs Qc 8s 3d 2s Jh Tc"])
def test_a_stored_hand_reads_as_the_cards_show_it_in_plain_text(stored: str) -> None:
    """``symbols``: the notation's letters become rank and suit symbol, ten as 10, the joker
    as JK, the order kept."""
    shown = symbols(stored)
    assert shown_cards(shown) == [c for c in stored.split() if c != "JK"]
    assert not NOTATION.search(shown) and shown.count(" ") == stored.count(" ")
    assert ("JK" in shown) == ("JK" in stored) and "10" in shown
    assert symbols(stored, together=True) == shown.replace(" ", "\u00a0")  # one line


@pytest.mark.parametrize("stored", ["", "cards unread", "2c 2c"])
def test_text_that_is_not_a_hand_is_shown_as_it_was_stored(stored: str) -> None:
    assert symbols(stored) == stored
