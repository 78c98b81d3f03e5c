"""Spreadsheet primitives: cells and their styles, blocks of rows, the layout of inputs and
answers, and the formula texts the sheets write."""
