"""What the tests share: servers, databases, browser pages, players in other processes, game twins.

Test modules import from here, never from one another, so that each test module can be read,
moved or deleted alone.
"""
