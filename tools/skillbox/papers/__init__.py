"""Text rules shared by the paper skills' scripts (citations, literature search, paper fetching).

A skill never runs another skill's script, so what several of them need (comparing titles in any script, reading
a DOI out of prose) lives here, in the package the scripts' interpreter (`skillbox-python`) already has. Library
only: no click, no printing.
"""
