"""Plain words for learners: the models name players by seat, the widgets by name."""

from __future__ import annotations

import functools
import re

YOU = 0
YOU_VERBS = {"has": "have", "is": "are", "does": "do", "was": "were"}


@functools.cache
def seat_pattern(word: str) -> re.Pattern:
    """How the models write a seat ("player 1", "Team 0's") and the verb after it, for a game's seat word."""
    first = f"[{word[0].upper()}{word[0].lower()}]"
    return re.compile(rf"\b{first}{word[1:]} (\d+)('s)?(\s+(?:has|is|does|was)\b)?(?=(\s+[a-z])?)")


def with_names(text: str, speakers: list[str], you: int | None = YOU, seat_word: str = "player") -> str:
    """Say a model's text with the players' names, the learner at seat `you` being "you".

    `seat_word` is how the game's texts name a seat ("player", or "team" in a quiz).

    Examples
    ========

    >>> from colorlab.widgets.words import with_names
    >>> with_names("it is player 1's pick, not player 0's", ["You", "Bot 1"])
    "It is Bot 1's pick, not yours"
    >>> with_names("player 0 has 2 exchange(s) to make", ["You", "Bot 1"])
    'You have 2 exchange(s) to make'
    >>> with_names("it is player 0's pick, not player 1's", ["Ada", "You"], you=1)
    "It is Ada's pick, not yours"
    >>> with_names("Team 1 scores 3 points", ["Reds", "Blues"], you=None, seat_word="team")
    'Blues scores 3 points'
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
        starts_sentence = match.start() == 0 or text[: match.start()].rstrip().endswith((".", ":", "!", "?"))
        return said.capitalize() if starts_sentence else said

    said = seat_pattern(seat_word).sub(name, text)
    return said[:1].upper() + said[1:]
