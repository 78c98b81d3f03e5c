"""The sheets of a workbook, one module each; the calculator sheets in :mod:`.calculators`."""
