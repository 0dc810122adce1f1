"""Base games: the rules of the table games the side wagers are placed at.

A game module holds what the regulation's base-game chapter fixes — card values, the dealing order,
drawing rules and the result of a round — with no paytables and no money. Wager modules read a dealt
round through it. Layering: ``cards`` → ``games`` → ``wagers`` → ``analysis`` → ``cli``.
"""
