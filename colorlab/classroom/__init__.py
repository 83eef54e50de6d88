"""The classroom app, above the games: the class server, the lobby, the teacher's page and the sample class.

It reaches the games only through their declarations (:mod:`colorlab.games`) and keeps a class's
tables in the table engine (:mod:`colorlab.tables`). See docs/classroom.md.
"""
