"""The input form's widgets: the panel, its editors, the words shown for values and the texts under each editor."""
