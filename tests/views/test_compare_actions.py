"""The comparison's buttons wrap (issue 13): in a narrow tab the exports move to a second row, right-aligned, instead
of the tab scrolling sideways; every button keeps its tooltip and its place in the Tab order; the tab, in a scroll
area, is as tall as the area (no height-for-width: a scroll area would make it its preferred height)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt

from tests.views.helpers import settle
from vramgui.views.compare.table import PinActions
from vramgui.views.compare.view import CompareWidget
from vramgui.views.window_geometry import scroll_box


def _rects(actions: PinActions) -> list[QRect]:
    return [b.geometry() for b in actions.buttons]



def _compare(qtbot, width: int, height: int = 600) -> CompareWidget:
    widget = CompareWidget()
    widget.retranslate()
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    settle()
    return widget


def test_the_buttons_need_the_width_of_the_widest_not_of_all_seven(qtbot):
    widget = _compare(qtbot, 900)
    widest = max(b.sizeHint().width() for b in widget.action_bar.buttons)
    assert widget.action_bar.minimumSizeHint().width() == widest
    assert widget.minimumSizeHint().width() <= 540


def test_in_a_wide_tab_the_buttons_stand_on_one_row_the_exports_at_its_right_end(qtbot):
    widget = _compare(qtbot, 1100)
    rects = _rects(widget.action_bar)
    assert len({r.top() for r in rects}) == 1
    assert rects[-1].right() == widget.action_bar.rect().right()
    assert rects[5].left() - rects[4].right() > 50, "a gap between the pin's actions and the exports"


def test_in_a_narrow_tab_the_exports_move_together_to_a_second_row(qtbot):
    widget = _compare(qtbot, 530)
    actions = widget.action_bar
    rects = _rects(actions)
    assert len({r.top() for r in rects[:5]}) == 1, "the pin and the row's actions on the first row"
    assert rects[5].top() == rects[6].top() > rects[0].bottom()
    assert rects[6].right() == actions.rect().right()
    assert all(actions.rect().contains(r) for r in rects)
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert actions.height() >= rects[5].bottom(), "the panel made room for the second row"
    widget.resize(1100, 600)
    settle()
    assert len({r.top() for r in _rects(actions)}) == 1 and actions.height() < rects[5].bottom()


def test_at_a_width_for_one_button_each_stands_on_its_own_row(qtbot):
    actions = PinActions()
    qtbot.addWidget(actions)
    for i, button in enumerate(actions.buttons):
        button.setText("x" * (10 + i))
    actions.resize(actions.minimumSizeHint().width(), 400)
    actions.show()
    settle()
    tops = [r.top() for r in _rects(actions)]
    assert tops == sorted(tops) and len(set(tops)) == 7


def test_every_button_has_a_tooltip_and_a_place_in_the_tab_order(qtbot):
    widget = _compare(qtbot, 530)
    buttons = widget.action_bar.buttons
    for button in buttons:
        button.setEnabled(True)
        assert button.toolTip().strip(), button.text()
        assert button.focusPolicy() & Qt.FocusPolicy.TabFocus
    chain, current = [], buttons[0]
    for _ in range(len(buttons)):
        chain.append(current)
        current = current.nextInFocusChain()
    assert chain == buttons, "Tab walks the buttons left to right"


def test_in_a_scroll_area_the_tab_is_as_tall_as_the_area(qtbot):
    widget = CompareWidget()
    box = scroll_box(widget, horizontal=True)
    qtbot.addWidget(box)
    box.resize(560, 700)
    box.show()
    qtbot.waitExposed(box)
    settle()
    assert widget.height() == box.viewport().height()
    assert not box.verticalScrollBar().isVisible() and not box.horizontalScrollBar().isVisible()
