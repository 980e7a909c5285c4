"""A row-cursor table whose Enter is listed in the footer and the palette.

DataTable binds Enter itself but hides it; a screen-level Enter binding would only show if it had
priority, and a priority binding runs ahead of keys still queued for the table (``down down enter``
typed fast would open the wrong row). So the table's own Enter is the visible one.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable


class RecordTable(DataTable[Any]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", id="table.open", tooltip="Open the highlighted row"),
    ]


def cursor_key(table: DataTable[Any]) -> str | None:
    """The key of the row under the cursor; None when the table is empty."""
    if table.row_count == 0:
        return None
    row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
    return row_key.value
