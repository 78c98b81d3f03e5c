"""The workbook's content: the spec (its model, its reader, the bundled specs), the calculators'
inputs and the score matrices' estimates."""
