"""Plain words for learners: the models name players by seat, the widgets by name."""

from __future__ import annotations

import re

YOU = 0
# "player 1", "Player 0's" and the verb after a seat, as the models write them.
SEAT = re.compile(r"\b[Pp]layer (\d+)('s)?(\s+(?:has|is|does|was)\b)?(?=(\s+[a-z])?)")
YOU_VERBS = {"has": "have", "is": "are", "does": "do", "was": "were"}


def with_names(text: str, speakers: list[str], you: int | None = YOU) -> str:
    """Say a model's text with the players' names, the learner at seat `you` being "you".

    Examples
    ========

    >>> from colorlab.widgets.words import with_names
    >>> with_names("it is player 1's pick, not player 0's", ["You", "Bot 1"])
    "It is Bot 1's pick, not yours"
    >>> with_names("player 0 has 2 exchange(s) to make", ["You", "Bot 1"])
    'You have 2 exchange(s) to make'
    >>> with_names("it is player 0's pick, not player 1's", ["Ada", "You"], you=1)
    "It is Ada's pick, not yours"
    """
    def name(match: re.Match) -> str:
        seat, owner, verb, word_after = int(match[1]), match[2], match[3] or "", match[4]
        if seat >= len(speakers):
            return match[0]
        if seat != you:
            return speakers[seat] + (owner or "") + verb
        said = ("your" if word_after and not verb else "yours") if owner else "you"
        if verb:
            said += verb.replace(verb.strip(), YOU_VERBS[verb.strip()])
        starts_sentence = match.start() == 0 or text[:match.start()].rstrip().endswith((".", ":", "!", "?"))
        return said.capitalize() if starts_sentence else said
    said = SEAT.sub(name, text)
    return said[:1].upper() + said[1:]
