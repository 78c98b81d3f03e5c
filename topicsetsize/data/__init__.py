"""Data shipped with the package (see PROVENANCE.md in this folder)."""
