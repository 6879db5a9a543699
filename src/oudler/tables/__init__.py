"""The game service of the web table, apart from any transport: matches replayed from the store
(``games``), each seat's view (``view``), the computer players and the job queue they think on
(``computer``, ``jobs``, ``redisqueue``), the coach (``coaching``) and a person's own play
(``history``). ``oudler.web`` serves it over HTTP; nothing here imports from it.
"""
