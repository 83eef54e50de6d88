"""Colorium's resting places found the slow, plain way, to check the fast search (and the model's draws) against."""

from __future__ import annotations

from collections import deque

from colorlab.colorium.shapes import orientations


def fits(board, image, row, col):
    """Do the image's cells at this position lie between the walls, above the floor, on empty spaces?"""
    return all(
        0 <= col + dc < board.width
        and row + dr < board.height
        and (row + dr < 0 or board.rows[row + dr][col + dc] == ".")
        for dr, dc in image
    )


def reference_placements(board, shape, rules):
    """Find the resting places the slow, plain way: walk positions, test each cell on the board."""
    found = []
    for k, image in enumerate(orientations(shape, rules.mirror_images)):
        tall = 1 + max(r for r, _ in image)
        wide = 1 + max(c for _, c in image)
        if rules.drop == "straight":
            ends = []
            for col in range(board.width - wide + 1):
                row = -tall
                while fits(board, image, row + 1, col):
                    row += 1
                ends.append((row, col))
        else:
            ends = {(-tall, col) for col in range(board.width - wide + 1)}
            queue = deque(ends)
            while queue:
                row, col = queue.popleft()
                for step in [(row + 1, col), (row, col - 1), (row, col + 1)]:
                    if step not in ends and fits(board, image, *step):
                        ends.add(step)
                        queue.append(step)
        for row, col in ends:
            if row >= 0 and not fits(board, image, row + 1, col):
                found.append((k, frozenset((row + dr, col + dc) for dr, dc in image)))
    return sorted(found, key=lambda found: (found[0], sorted(found[1])))
